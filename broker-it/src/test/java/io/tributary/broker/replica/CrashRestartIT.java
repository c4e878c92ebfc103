package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.AckedWriter;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leader of a partition (the controller too, now and then) is SIGKILLed and started again at once, well inside
 * its ZooKeeper session, so its old registration is still there when it comes back; three times over,
 * under an idempotent acks=all producer. The restarted broker must not take up leadership under the
 * state written before its crash: whatever is appended after a restart carries a newer leader epoch
 * than before it, and every acknowledged record survives, once, in order.
 */
class CrashRestartIT {
    private static final String TOPIC = "crash-restart";
    private static final int PARTITIONS = 3;
    private static final int RESTARTS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final byte[] PROBE = "-1".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    @Timeout(400)
    void aLeaderRestartedInsideItsSessionLeadsOnlyUnderANewEpochAndLosesNothingAcknowledged() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of(
                BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                BrokerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS, "10000",
                BrokerConfig.REPLICA_LAG_TIME_MAX_MS, "5000"));
             Admin admin = Clients.admin(cluster.bootstrapServers());
             KafkaProducer<byte[], byte[]> probes = Clients.producer(cluster.bootstrapServers());
             KafkaConsumer<byte[], byte[]> probeReader = Clients.consumer(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get();
            for (int p = 0; p < PARTITIONS; p++) {
                cluster.awaitFullIsr(admin, TOPIC, p, TIMEOUT);
            }
            AckedWriter writer = new AckedWriter(cluster.bootstrapServers(), TOPIC, PARTITIONS);
            writer.start();
            try {
                for (int restart = 0; restart < RESTARTS; restart++) {
                    awaitMoreAcknowledged(writer, "before restart " + restart);
                    int epochBefore = leaderEpochOfANewRecord(probes, probeReader);
                    BrokerProcess victim = cluster.broker(TestCluster.leaderOf(admin, TOPIC, 0));
                    long linesBefore = Files.readAllLines(victim.output()).size();
                    victim.kill();
                    victim.restart();
                    assertThat(linesBeforeRegistering(victim, linesBefore))
                            .as("the restarted process led nothing before it had a registration of its own")
                            .noneMatch(line -> line.contains(": leader at epoch"));
                    for (int p = 0; p < PARTITIONS; p++) {
                        cluster.awaitFullIsr(admin, TOPIC, p, TIMEOUT);
                    }
                    assertThat(leaderEpochOfANewRecord(probes, probeReader))
                            .as("the leader epoch of a record appended after restart " + restart).isGreaterThan(epochBefore);
                }
                awaitMoreAcknowledged(writer, "after the last restart");
            } finally {
                writer.finish();
            }
            assertThat(writer.failure.get()).as("producer failure").isNull();

            writer.assertEveryAcknowledgedRecordStoredOnceInOrder(cluster.bootstrapServers(), TIMEOUT);
        }
    }

    /** What the broker's latest process logged before it registered. */
    private static List<String> linesBeforeRegistering(BrokerProcess broker, long skip) throws IOException {
        List<String> lines = Files.readAllLines(broker.output()).stream().skip(skip).toList();
        int registered = 0;
        while (registered < lines.size() && !lines.get(registered).contains("registered broker")) {
            registered++;
        }
        assertThat(registered).as("the restarted broker logged its registration").isLessThan(lines.size());
        return lines.subList(0, registered);
    }

    private static void awaitMoreAcknowledged(AckedWriter writer, String when) {
        long before = writer.acknowledged.size();
        Awaitility.await("acknowledgements " + when).atMost(TIMEOUT)
                .until(() -> writer.acknowledged.size() >= before + 1_000 || writer.failure.get() != null);
    }

    /** Appends a record to partition 0 and reads back the leader epoch its batch was stamped with. */
    private static int leaderEpochOfANewRecord(KafkaProducer<byte[], byte[]> producer, KafkaConsumer<byte[], byte[]> reader)
            throws Exception {
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        RecordMetadata written = producer.send(new ProducerRecord<>(TOPIC, 0, null, PROBE)).get();
        reader.assign(List.of(partition));
        reader.seek(partition, written.offset());
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        Awaitility.await("reading back offset " + written.offset()).atMost(TIMEOUT)
                .until(() -> {
                    reader.poll(Duration.ofMillis(200)).records(partition).forEach(read::add);
                    return !read.isEmpty();
                });
        return read.get(0).leaderEpoch().orElseThrow();
    }
}
