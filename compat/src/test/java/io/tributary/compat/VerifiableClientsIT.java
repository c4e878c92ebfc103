package io.tributary.compat;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.tools.VerifiableConsumer;
import org.apache.kafka.tools.VerifiableProducer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kafka's VerifiableProducer and VerifiableConsumer, the clients of Kafka's own system tests, each in a JVM of its
 * own: two consumers form a group with each group protocol, the producer sends keyed records with acks=all, and
 * every record the broker acknowledged is consumed, with the group's commits at the end of every partition.
 */
@Timeout(120)
class VerifiableClientsIT {
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 300;
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final CompatBroker broker = new CompatBroker();

    /** A record as the producer saw it acknowledged and the consumer saw it fetched. */
    private record Seen(int partition, long offset, String value) {
        static Seen of(JsonNode event) {
            return new Seen(event.get("partition").asInt(), event.get("offset").asLong(), event.get("value").asText());
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void everyAcknowledgedRecordIsConsumed(String protocol) throws Exception {
        String topic = "verifiable-" + protocol;
        broker.createTopic(topic, PARTITIONS);
        try (ChildJvm first = consumer(topic, protocol, 1);
             ChildJvm second = consumer(topic, protocol, 2)) {
            await().atMost(CLIENT_TIMEOUT).untilAsserted(() -> {
                assertThat(assignment(first)).as("first consumer's partitions; %s", first.stderr()).isNotEmpty();
                assertThat(assignment(second)).as("second consumer's partitions; %s", second.stderr()).isNotEmpty();
                assertThat(Stream.concat(assignment(first).stream(), assignment(second).stream())).hasSize(PARTITIONS);
            });

            Set<Seen> acked = produce(topic);

            await().atMost(CLIENT_TIMEOUT).until(() -> consumed(first, second).containsAll(acked));
            // each consumer commits after each poll, before it polls again
            await().atMost(CLIENT_TIMEOUT).untilAsserted(() -> assertThat(broker.committed(topic))
                    .isEqualTo(broker.endOffsets(topic, PARTITIONS)));
            first.stop(CLIENT_TIMEOUT);
            second.stop(CLIENT_TIMEOUT);
            assertThat(first.events("shutdown_complete")).hasSize(1);
            assertThat(second.events("shutdown_complete")).hasSize(1);
            assertThat(consumed(first, second)).as("acked == consumed").isEqualTo(acked);
        }
    }

    private static ChildJvm consumer(String topic, String protocol, int number) throws Exception {
        return ChildJvm.start(VerifiableConsumer.class, broker.dir(), topic + "-consumer-" + number,
                "--bootstrap-server", broker.bootstrapServers(), "--topic", topic, "--group-id", topic,
                "--group-protocol", protocol, "--verbose", "--reset-policy", "earliest");
    }

    /** Runs the producer to its end; returns what the broker acknowledged. */
    private static Set<Seen> produce(String topic) throws Exception {
        try (ChildJvm producer = ChildJvm.start(VerifiableProducer.class, broker.dir(), topic + "-producer",
                "--bootstrap-server", broker.bootstrapServers(), "--topic", topic, "--max-messages", String.valueOf(RECORDS),
                "--acks", "-1", "--repeating-keys", "30")) {
            assertThat(producer.awaitExit(CLIENT_TIMEOUT)).as(producer.stderr()).isZero();
            assertThat(producer.events("producer_send_error")).isEmpty();
            assertThat(producer.events("tool_data")).singleElement()
                    .satisfies(summary -> assertThat(summary.get("acked").asInt()).isEqualTo(RECORDS));
            Set<Seen> acked = new HashSet<>();
            producer.events("producer_send_success").forEach(event -> acked.add(Seen.of(event)));
            assertThat(acked).hasSize(RECORDS);
            return acked;
        }
    }

    /** The consumer's partitions now, from its partitions_assigned and partitions_revoked events in order. */
    private static Set<Integer> assignment(ChildJvm consumer) {
        Set<Integer> partitions = new HashSet<>();
        for (JsonNode event : consumer.events()) {
            String name = event.path("name").asText();
            if (name.equals("partitions_assigned") || name.equals("partitions_revoked")) {
                for (JsonNode partition : event.get("partitions")) {
                    if (name.equals("partitions_assigned")) {
                        partitions.add(partition.get("partition").asInt());
                    } else {
                        partitions.remove(partition.get("partition").asInt());
                    }
                }
            }
        }
        return partitions;
    }

    private static Set<Seen> consumed(ChildJvm... consumers) {
        Set<Seen> seen = new HashSet<>();
        for (ChildJvm consumer : consumers) {
            consumer.events("record_data").forEach(event -> seen.add(Seen.of(event)));
        }
        return seen;
    }
}
