package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.AckedWriter;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers, RF 3, min.insync.replicas=2, an idempotent acks=all producer. A broker other than the controller
 * is SIGKILLed and never started again: it follows four of the six partitions and leads two, as the brokers of a
 * real cluster do. {@code replica.lag.time.max.ms} equals the
 * ZooKeeper session timeout, so the leaders' own ISR shrinks and the controller's removal of the dead broker
 * (when its session expires) come at about the same time and race for the same state nodes. Once the ISR has
 * shrunk, acks=all writes must go on to every partition, the producer must see nothing but retriable errors, and
 * every acknowledged record must be in the log once, in order.
 */
class FollowerKilledForGoodIT {
    private static final String TOPIC = "follower-gone";
    private static final int PARTITIONS = 6;
    private static final int SESSION_TIMEOUT_MS = 6_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Kafka's and issue 17's bound for serving every partition again, counted from the session's expiry. */
    private static final Duration RECOVERY = Duration.ofMillis(SESSION_TIMEOUT_MS + 10_000);

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void acksAllWritesGoOnOnceTheIsrHasShrunkWithoutTheDeadFollower() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of(
                BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                BrokerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS, Integer.toString(SESSION_TIMEOUT_MS),
                BrokerConfig.REPLICA_LAG_TIME_MAX_MS, Integer.toString(SESSION_TIMEOUT_MS)));
             Admin admin = Clients.admin(cluster.bootstrapServers());
             KafkaProducer<byte[], byte[]> probes = Clients.producer(cluster.bootstrapServers(),
                     Map.of(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) RECOVERY.toMillis(),
                             ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000))) {
            int controller = admin.describeCluster().controller().get().id();
            int victim = (controller + 1) % 3;
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get();
            for (int p = 0; p < PARTITIONS; p++) {
                cluster.awaitFullIsr(admin, TOPIC, p, TIMEOUT);
            }
            AckedWriter writer = new AckedWriter(cluster.bootstrapServers(), TOPIC, PARTITIONS);
            writer.start();
            try {
                awaitMoreAcknowledged(writer, 1_000, TIMEOUT, "before the kill");
                cluster.broker(victim).kill();
                long killedAt = System.nanoTime();

                Awaitility.await("every ISR without broker " + victim).atMost(RECOVERY.plusMillis(SESSION_TIMEOUT_MS))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> {
                            for (int p = 0; p < PARTITIONS; p++) {
                                if (TestCluster.isrOf(admin, TOPIC, p).contains(victim)) {
                                    return false;
                                }
                            }
                            return true;
                        });
                for (int p = 0; p < PARTITIONS; p++) {
                    probes.send(new ProducerRecord<>(TOPIC, p, null, "-1".getBytes(StandardCharsets.UTF_8)))
                            .get(RECOVERY.toMillis(), TimeUnit.MILLISECONDS);
                }
                long recoveredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                System.out.println("FOLLOWER-KILLED: every partition acknowledged again " + recoveredMs + " ms after the kill");
                assertThat(recoveredMs).as("ms from the kill until every partition acknowledged an acks=all write")
                        .isLessThan(SESSION_TIMEOUT_MS + RECOVERY.toMillis());
                for (int window = 0; window < 4; window++) {
                    awaitMoreAcknowledged(writer, 200, Duration.ofSeconds(10), "in window " + window + " after the ISR shrank");
                }
            } finally {
                writer.finish();
            }
            assertThat(writer.failure.get()).as("producer failure").isNull();

            writer.assertEveryAcknowledgedRecordStoredOnceInOrder(cluster.bootstrapServers(), TIMEOUT);
        }
    }

    private static void awaitMoreAcknowledged(AckedWriter writer, int more, Duration within, String when) {
        long before = writer.acknowledged.size();
        Awaitility.await(more + " more acknowledgements " + when).atMost(within).pollInterval(Duration.ofMillis(100))
                .until(() -> writer.acknowledged.size() >= before + more || writer.failure.get() != null);
        assertThat(writer.failure.get()).as("producer failure " + when).isNull();
    }
}
