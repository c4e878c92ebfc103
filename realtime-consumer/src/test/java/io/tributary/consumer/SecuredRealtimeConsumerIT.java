package io.tributary.consumer;

import io.tributary.testkit.tributary.SecuredBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The consumer library against a broker with one SASL_SSL listener (SCRAM) and ACLs: the security settings given
 * once with {@code clientProperties} log in both the consumer and the dead-letter producer, and a wrong password
 * stops the consumer with the authentication failure instead of retrying forever.
 */
@Timeout(120)
class SecuredRealtimeConsumerIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void securitySettingsReachTheConsumerAndTheDeadLetterProducer(@TempDir Path dir) throws Exception {
        try (SecuredBroker broker = SecuredBroker.start(dir, Map.of())) {
            broker.addUser("carol", "carol-secret");
            broker.allow("carol", ResourceType.TOPIC, "events", AclOperation.READ);
            broker.allow("carol", ResourceType.GROUP, "events-app", AclOperation.READ);
            broker.allow("carol", ResourceType.TOPIC, "events-dlq", AclOperation.WRITE);
            try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic("events", 2, (short) 1), new NewTopic("events-dlq", 1, (short) 1)))
                        .all().get();
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(broker.adminClientSettings(),
                    new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>("events", "k" + i, i == 7 ? "bad" : "v" + i)).get();
                }
            }

            List<String> handled = new CopyOnWriteArrayList<>();
            try (RealtimeConsumer consumer = RealtimeConsumer.builder()
                    .bootstrapServers(broker.bootstrapServers())
                    .groupId("events-app")
                    .topics("events")
                    .startPosition(StartPosition.earliest())
                    .clientProperties(broker.clientSettings("carol", "carol-secret"))
                    .retryPolicy(RetryPolicy.none())
                    .failurePolicy(FailurePolicy.deadLetter("events-dlq"))
                    .keyDeserializer(new StringDeserializer())
                    .valueDeserializer(new StringDeserializer())
                    .recordHandler(record -> {
                        if (record.value().equals("bad")) {
                            throw new IllegalArgumentException("cannot handle " + record.key());
                        }
                        handled.add(record.value());
                    })
                    .start()) {
                await().atMost(WAIT).until(() -> handled.size() == 19);
                assertThat(consumer.isRunning()).isTrue();
            }
            assertThat(readAll(broker, "events-dlq")).containsExactly("bad");
        }
    }

    @Test
    void aWrongPasswordStopsTheConsumerWithTheAuthenticationFailure(@TempDir Path dir) throws Exception {
        try (SecuredBroker broker = SecuredBroker.start(dir, Map.of())) {
            broker.addUser("carol", "carol-secret");
            RealtimeConsumer consumer = RealtimeConsumer.builder()
                    .bootstrapServers(broker.bootstrapServers())
                    .groupId("events-app")
                    .topics("events")
                    .clientProperties(broker.clientSettings("carol", "wrong"))
                    .recordHandler(record -> { })
                    .start();
            try {
                assertThat(consumer.awaitTermination(WAIT)).as("stopped on its own").isTrue();
                assertThat(consumer.failure()).get().isInstanceOf(SaslAuthenticationException.class);
            } finally {
                consumer.close(Duration.ofSeconds(10));
            }
        }
    }

    private static List<String> readAll(SecuredBroker broker, String topic) {
        Map<String, Object> settings = broker.adminClientSettings();
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            await().atMost(WAIT).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
                return consumer.position(partition) >= end;
            });
        }
        return values;
    }
}
