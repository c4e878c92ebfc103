package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.OffsetCheckpointFile;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two brokers (separate JVMs): while a follower is down, retention on the leader deletes the records
 * the follower would fetch next. Back, the follower's fetch is out of range below the leader's log
 * start: it empties its log, restarts at the leader's log start, catches up and rejoins the ISR.
 */
class FollowerBehindLogStartIT {
    private static final String TOPIC = "trimmed";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aFollowerWhoseNextRecordsWereDeletedRestartsAtTheLeadersLogStart() throws Exception {
        // Without controlled shutdown the final SIGTERM stops the leader at once (it only has to checkpoint).
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of(LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS, "200",
                BrokerConfig.CONTROLLED_SHUTDOWN_ENABLE, "false"));
             Admin admin = Clients.admin(cluster.bootstrapServers());
             KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 2).configs(Map.of(
                    LogConfig.SEGMENT_BYTES, "1024", LogConfig.RETENTION_BYTES, "2048")))).all().get();
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            int leader = TestCluster.leaderOf(admin, TOPIC, 0);
            int follower = 1 - leader;
            send(producer, 0, 10);

            cluster.broker(follower).kill();
            Awaitility.await("the ISR without the follower").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> TestCluster.isrOf(admin, TOPIC, 0).equals(List.of(leader)));
            send(producer, 10, 100);
            Awaitility.await("retention moved the leader's log start past the follower").atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(200)).until(() -> earliest(admin) > 10);

            cluster.broker(follower).restart();
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            assertThat(TestCluster.leaderOf(admin, TOPIC, 0)).isEqualTo(leader);

            cluster.broker(leader).terminate();
            Map<TopicPartition, Long> checkpointed = new OffsetCheckpointFile(
                    dir.resolve("broker-" + leader).resolve("logs").resolve("replication-offset-checkpoint")).read();
            assertThat(checkpointed).as("the high watermark, checkpointed at shutdown").containsEntry(PARTITION, 100L);
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, int from, int to) throws Exception {
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 0, null, new byte[200]));
        }
        producer.flush();
    }

    private static long earliest(Admin admin) throws Exception {
        return admin.listOffsets(Map.of(PARTITION, OffsetSpec.earliest())).partitionResult(PARTITION).get().offset();
    }
}
