package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.AckedWriter;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.GroupReader;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.Node;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers (separate JVMs), RF 3, min.insync.replicas=2. An idempotent acks=all producer
 * writes continuously and a consumer group consumes, committing after each poll, while the test
 * takes the leader of partition 0 down again and again — 20 SIGKILLs, and after every fifth a
 * SIGTERM (controlled shutdown) — and starts it again. Afterwards every acknowledged record is in the log exactly once,
 * in order per partition; the group consumed every acknowledged record; and the preferred
 * replicas lead again.
 */
class FailoverIT {
    private static final String TOPIC = "failover";
    private static final int PARTITIONS = 2;
    /** The 20 SIGKILLs plus 4 controlled shutdowns. */
    private static final int LEADER_CHANGES = Integer.getInteger("failover.leader.changes", 24);
    private static final int SIGTERM_EVERY = 6;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void leaderKilledAndStoppedRepeatedlyLosesAndDuplicatesNothingAcknowledged() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of(
                BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                BrokerConfig.REPLICA_LAG_TIME_MAX_MS, "5000",
                BrokerConfig.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS, "2"));
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get();
            for (int p = 0; p < PARTITIONS; p++) {
                cluster.awaitFullIsr(admin, TOPIC, p, TIMEOUT);
            }
            AckedWriter writer = new AckedWriter(cluster.bootstrapServers(), TOPIC, PARTITIONS);
            GroupReader reader = new GroupReader(cluster.bootstrapServers(), TOPIC, "failover-group");
            writer.start();
            reader.start();
            try {
                for (int change = 0; change < LEADER_CHANGES; change++) {
                    long ackedBefore = writer.acknowledged.size();
                    Awaitility.await("acknowledgements before change " + change).atMost(TIMEOUT)
                            .until(() -> writer.acknowledged.size() >= ackedBefore + 200 || writer.failure.get() != null);
                    int leader = TestCluster.leaderOf(admin, TOPIC, 0);
                    BrokerProcess broker = cluster.broker(leader);
                    if (change % SIGTERM_EVERY != SIGTERM_EVERY - 1) {
                        broker.kill();
                    } else {
                        assertThat(broker.terminate()).isEqualTo(128 + 15);
                    }
                    Awaitility.await("a new leader after broker " + leader + " went").atMost(TIMEOUT)
                            .pollInterval(Duration.ofMillis(100))
                            .until(() -> {
                                int now = TestCluster.leaderOf(admin, TOPIC, 0);
                                return now >= 0 && now != leader;
                            });
                    broker.restart();
                    for (int p = 0; p < PARTITIONS; p++) {
                        cluster.awaitFullIsr(admin, TOPIC, p, TIMEOUT);
                    }
                }
            } finally {
                writer.finish();
            }
            assertThat(writer.failure.get()).as("producer failure").isNull();
            assertThat(Files.readString(dir.resolve("broker-0").resolve("broker.log"))
                    + Files.readString(dir.resolve("broker-1").resolve("broker.log"))
                    + Files.readString(dir.resolve("broker-2").resolve("broker.log")))
                    .contains("controlled shutdown: leadership moved away");

            Map<Integer, List<Long>> stored = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> record : Records.readAll(cluster.bootstrapServers(), TOPIC, TIMEOUT)) {
                stored.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(AckedWriter.sequence(record.value()));
            }
            for (List<Long> sequences : stored.values()) {
                assertThat(sequences).as("each partition in send order, nothing twice").isSorted().doesNotHaveDuplicates();
            }
            Set<Long> all = new HashSet<>();
            stored.values().forEach(all::addAll);
            assertThat(writer.acknowledged).as("acknowledged records (sanity)").hasSizeGreaterThan(LEADER_CHANGES * 200);
            assertThat(missing(writer.acknowledged, all)).as("acknowledged records missing from the log").isEmpty();
            Awaitility.await("the group consumed every acknowledged record").atMost(TIMEOUT)
                    .until(() -> reader.consumed.containsAll(writer.acknowledged) || reader.failure.get() != null);
            reader.finish();
            assertThat(reader.failure.get()).as("consumer failure").isNull();
            assertThat(missing(writer.acknowledged, reader.consumed)).as("acknowledged records the group missed").isEmpty();

            Awaitility.await("preferred replicas lead again").atMost(TIMEOUT).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        var partitions = TestCluster.describe(admin, TOPIC, 0);
                        Node leader = partitions.leader();
                        return leader != null && leader.id() == partitions.replicas().get(0).id();
                    });
        }
    }

    private static Set<Long> missing(Set<Long> expected, Set<Long> found) {
        Set<Long> missing = new HashSet<>(expected);
        missing.removeAll(found);
        return missing;
    }

    private static long sequence(byte[] value) {
        return Long.parseLong(new String(value, StandardCharsets.UTF_8));
    }
}
