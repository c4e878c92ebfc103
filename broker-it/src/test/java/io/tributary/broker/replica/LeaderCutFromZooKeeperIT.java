package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.controller.PartitionStateStore;
import io.tributary.broker.testing.AckedWriter;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import io.tributary.broker.testing.TcpProxy;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zombie made by the network: broker 2 reaches ZooKeeper only through a TCP proxy, which the test cuts (every
 * byte dropped, connections left open) while broker 2 leads a partition and keeps talking to the other brokers and
 * the clients. Its session expires, the controller elects another leader, and broker 2 must then acknowledge
 * nothing more, whatever a client sends it directly, acks=1 included: it resigns by the time the ZooKeeper server may
 * expire its session, before the controller can elect anyone else (not only once Curator reports the session lost,
 * 2/3 of a session timeout later). When the proxy heals it registers again, follows the new leader, and every record
 * acknowledged to the cluster's producer is in the log once, in order. Meanwhile broker 2 still fetches as a follower of the other partitions; their leaders
 * must not add it back to the ISRs the controller removed it from, since ZooKeeper has no registration of it.
 */
class LeaderCutFromZooKeeperIT {
    private static final String TOPIC = "cut-from-zookeeper";
    private static final int PARTITIONS = 3;
    private static final int VICTIM = 2;
    /** Long enough to tell the session deadline (T after the cut at the latest) from Curator's LOST (about 5/3 T). */
    private static final int SESSION_TIMEOUT_MS = 9_000;
    /**
     * How late after the earliest possible expiry the zombie may still acknowledge: the moments its ZooKeeper client
     * notices the silence and Curator passes that on. A new leader needs longer (the expiry, the controller's election
     * and the new leader's start). Curator's LOST comes 2/3 of a session timeout past the expiry: far too late.
     */
    private static final long DEADLINE_TOLERANCE_MS = 2_000;
    private static final Duration PROBE_INTERVAL = Duration.ofMillis(100);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final short PRODUCE_VERSION = 9;
    private static final short METADATA_VERSION = 12;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the brokers' logs stay for reading after a failure
    Path dir;
    private TcpProxy proxy;

    @AfterEach
    void closeProxy() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    @Timeout(400)
    void aLeaderCutOffFromZooKeeperResignsByItsSessionDeadlineAndAcknowledgesNothingAfterTheControllerMovedOn() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of(
                        BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                        BrokerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS, Integer.toString(SESSION_TIMEOUT_MS),
                        BrokerConfig.REPLICA_LAG_TIME_MAX_MS, Integer.toString(SESSION_TIMEOUT_MS)),
                (id, zookeeper) -> id == VICTIM ? (proxy = TcpProxy.to(zookeeper)).address() : zookeeper);
             Admin admin = Clients.admin(cluster.bootstrapServers());
             ZkClient zk = ZkClient.connect(cluster.zookeeperConnectString(), 10_000, 10_000)) {
            PartitionStateStore states = new PartitionStateStore(zk);
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get();
            List<Integer> led = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                cluster.awaitFullIsr(admin, TOPIC, p, TIMEOUT);
                if (TestCluster.leaderOf(admin, TOPIC, p) == VICTIM) {
                    led.add(p);
                }
            }
            assertThat(led).as("partitions broker " + VICTIM + " leads").isNotEmpty().hasSizeLessThan(PARTITIONS);
            int partition = led.get(0);
            TopicPartition followed = new TopicPartition(TOPIC, IntStream.range(0, PARTITIONS).filter(p -> !led.contains(p))
                    .findFirst().orElseThrow());
            AckedWriter writer = new AckedWriter(cluster.bootstrapServers(), TOPIC, PARTITIONS);
            writer.start();
            try {
                awaitMoreAcknowledged(writer, "before the cut");
                ZombieProbe probe;
                try (RawConnection direct = RawConnection.to(cluster.broker(VICTIM).bootstrapServers())) {
                    proxy.cut();
                    probe = new ZombieProbe(direct, partition, System.nanoTime());
                    // Metadata would not do: broker 2 answers it too, from what it saw of ZooKeeper before the cut.
                    Awaitility.await("another leader of partition " + partition).atMost(TIMEOUT).pollInterval(PROBE_INTERVAL)
                            .until(() -> {
                                probe.send();
                                return states.read(new TopicPartition(TOPIC, partition)).orElseThrow().leader();
                            }, leader -> leader >= 0 && leader != VICTIM);
                    // The session is certainly lost on broker 2's side by now: Curator gives up a session when the session
                    // timeout has passed since the connection was suspended, and it is suspended after 2/3 of it in silence.
                    Awaitility.await("two session timeouts since the cut").atMost(TIMEOUT).pollInterval(PROBE_INTERVAL)
                            .until(() -> {
                                probe.send();
                                return probe.sinceCutMs() > 2L * SESSION_TIMEOUT_MS + 2_000;
                            });
                }
                assertThat(probe.acknowledgedSinceCutMs).as("acks=1 writes broker " + VICTIM + " acknowledged after the cut, "
                        + "before its session was in danger").isNotEmpty();
                assertThat(probe.acknowledgedSinceCutMs.get(probe.acknowledgedSinceCutMs.size() - 1))
                        .as("when broker " + VICTIM + " last acknowledged an acks=1 write, in ms since the cut: the ZooKeeper "
                                + "server may expire its session " + SESSION_TIMEOUT_MS + " ms after it last heard of it, and a "
                                + "new leader may be elected from then on")
                        .isLessThanOrEqualTo(SESSION_TIMEOUT_MS + DEADLINE_TOLERANCE_MS);
                try (RawConnection direct = RawConnection.to(cluster.broker(VICTIM).bootstrapServers())) {
                    var metadata = (MetadataResponse) direct.request(ApiKeys.METADATA, METADATA_VERSION, new MetadataRequestData()
                            .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName(TOPIC))));
                    int named = metadata.data().topics().find(TOPIC).partitions().stream()
                            .filter(p -> p.partitionIndex() == partition).findFirst().orElseThrow().leaderId();
                    assertThat(named).as("the leader of partition " + partition + " in broker " + VICTIM + "'s metadata, once it "
                            + "resigned: clients must not be sent back to it").isNotEqualTo(VICTIM);
                }

                PartitionState before = states.read(followed).orElseThrow();
                assertThat(before.isr()).as("the ISR of " + followed + " once broker " + VICTIM + "'s session expired")
                        .doesNotContain(VICTIM);
                // Straight to broker 2, as a client with stale metadata would: a kafka-clients producer would ask
                // the other brokers for metadata and go to the new leader.
                try (RawConnection direct = RawConnection.to(cluster.broker(VICTIM).bootstrapServers())) {
                    for (short acks : new short[] {1, -1}) {
                        ProduceRequestData request = Requests.produce(TOPIC, partition, acks,
                                MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("-1".getBytes(StandardCharsets.UTF_8))))
                                .setTimeoutMs(3_000);
                        var response = (ProduceResponse) direct.request(ApiKeys.PRODUCE, PRODUCE_VERSION, request);
                        Errors error = Errors.forCode(response.data().responses().iterator().next().partitionResponses().get(0).errorCode());
                        assertThat(error).as("broker " + VICTIM + "'s answer to an acks=" + acks + " write after the controller "
                                + "had moved on").isNotEqualTo(Errors.NONE);
                    }
                }
                assertThat(states.read(followed).orElseThrow().zkVersion())
                        .as("the state of " + followed + " was left alone while broker " + VICTIM + " was unregistered: its leader "
                                + "did not add it back to the ISR against the controller (" + before + " before)")
                        .isEqualTo(before.zkVersion());
                proxy.heal();
                for (int p = 0; p < PARTITIONS; p++) {
                    cluster.awaitFullIsr(admin, TOPIC, p, TIMEOUT);
                }
                awaitMoreAcknowledged(writer, "after healing");
            } finally {
                writer.finish();
            }
            assertThat(writer.failure.get()).as("producer failure").isNull();
            writer.assertEveryAcknowledgedRecordStoredOnceInOrder(cluster.bootstrapServers(), TIMEOUT);
        }
    }

    private static void awaitMoreAcknowledged(AckedWriter writer, String when) {
        long before = writer.acknowledged.size();
        Awaitility.await("acknowledgements " + when).atMost(TIMEOUT)
                .until(() -> writer.acknowledged.size() >= before + 1_000 || writer.failure.get() != null);
    }

    /**
     * acks=1 writes sent straight to the victim, as a client with stale metadata would; records when each one it
     * acknowledged was sent.
     */
    private static final class ZombieProbe {
        private final RawConnection connection;
        private final int partition;
        private final long cutAtNanos;
        final List<Long> acknowledgedSinceCutMs = new ArrayList<>();

        ZombieProbe(RawConnection connection, int partition, long cutAtNanos) {
            this.connection = connection;
            this.partition = partition;
            this.cutAtNanos = cutAtNanos;
        }

        long sinceCutMs() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAtNanos);
        }

        void send() throws Exception {
            ProduceRequestData request = Requests.produce(TOPIC, partition, (short) 1,
                    MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("-1".getBytes(StandardCharsets.UTF_8))))
                    .setTimeoutMs(3_000);
            // The time it was sent: an append accepted before the deadline may be answered late on a loaded machine.
            long sentSinceCutMs = sinceCutMs();
            var response = (ProduceResponse) connection.request(ApiKeys.PRODUCE, PRODUCE_VERSION, request);
            if (response.data().responses().iterator().next().partitionResponses().get(0).errorCode() == Errors.NONE.code()) {
                acknowledgedSinceCutMs.add(sentSinceCutMs);
            }
        }
    }
}
