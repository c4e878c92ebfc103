package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers (separate JVMs): a group is served only by the leader of its
 * {@code __consumer_offsets} partition — the others answer NOT_COORDINATOR — and a commit, once
 * acknowledged, survives a SIGKILL of that leader: the new leader loads it from its replica and
 * serves the group, and the killed broker, back as a follower, refuses the group.
 */
class CoordinatorFailoverIT {
    private static final String GROUP = "coordinated-group";
    private static final String TOPIC = "positions";
    private static final TopicPartition POSITION = new TopicPartition(TOPIC, 0);
    private static final int OFFSETS_PARTITIONS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void theGroupFollowsTheLeaderOfItsOffsetsPartitionAndItsCommitsSurviveTheLeadersDeath() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of(BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, Integer.toString(OFFSETS_PARTITIONS)));
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
            commit(admin, 10);
            int offsetsPartition = Utils.abs(GROUP.hashCode()) % OFFSETS_PARTITIONS;
            cluster.awaitFullIsr(admin, OffsetStore.TOPIC, offsetsPartition, TIMEOUT);
            int first = TestCluster.leaderOf(admin, OffsetStore.TOPIC, offsetsPartition);
            assertThat(admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).coordinator().id()).isEqualTo(first);
            awaitOnlyCoordinator(cluster, first, 10);

            cluster.broker(first).kill();
            Awaitility.await("a new leader of " + OffsetStore.TOPIC + "-" + offsetsPartition).atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        int leader = TestCluster.leaderOf(admin, OffsetStore.TOPIC, offsetsPartition);
                        return leader >= 0 && leader != first;
                    });
            assertThat(committed(admin)).as("loaded by the new coordinator").isEqualTo(10);
            commit(admin, 20);

            cluster.broker(first).restart();
            cluster.awaitFullIsr(admin, OffsetStore.TOPIC, offsetsPartition, TIMEOUT);
            awaitOnlyCoordinator(cluster, TestCluster.leaderOf(admin, OffsetStore.TOPIC, offsetsPartition), 20);
        }
    }

    private static void commit(Admin admin, long offset) throws Exception {
        admin.alterConsumerGroupOffsets(GROUP, Map.of(POSITION, new OffsetAndMetadata(offset))).all().get();
    }

    private static long committed(Admin admin) throws Exception {
        return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get().get(POSITION).offset();
    }

    /** Waits until the coordinator serves the group (with the committed offset) and every other broker refuses it. */
    private static void awaitOnlyCoordinator(TestCluster cluster, int coordinator, long committed) {
        Awaitility.await("only broker " + coordinator + " coordinates " + GROUP).atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().untilAsserted(() -> {
                    for (int id = 0; id < cluster.size(); id++) {
                        OffsetFetchResponse fetched = offsetFetch(cluster.broker(id));
                        Errors heartbeat = heartbeat(cluster.broker(id));
                        if (id == coordinator) {
                            assertThat(Errors.forCode(fetched.data().errorCode())).isEqualTo(Errors.NONE);
                            assertThat(fetched.data().topics().get(0).partitions().get(0).committedOffset()).isEqualTo(committed);
                            assertThat(heartbeat).as("a member it does not know").isEqualTo(Errors.UNKNOWN_MEMBER_ID);
                        } else {
                            assertThat(Errors.forCode(fetched.data().errorCode())).as("OffsetFetch at broker " + id).isEqualTo(Errors.NOT_COORDINATOR);
                            assertThat(heartbeat).as("Heartbeat at broker " + id).isEqualTo(Errors.NOT_COORDINATOR);
                        }
                    }
                });
    }

    private static OffsetFetchResponse offsetFetch(BrokerProcess broker) throws Exception {
        try (RawConnection connection = RawConnection.to(broker.bootstrapServers())) {
            return (OffsetFetchResponse) connection.request(ApiKeys.OFFSET_FETCH, (short) 7, new OffsetFetchRequestData()
                    .setGroupId(GROUP).setTopics(List.of(new OffsetFetchRequestTopic().setName(TOPIC).setPartitionIndexes(List.of(0)))));
        }
    }

    private static Errors heartbeat(BrokerProcess broker) throws Exception {
        try (RawConnection connection = RawConnection.to(broker.bootstrapServers())) {
            return ((HeartbeatResponse) connection.request(ApiKeys.HEARTBEAT, (short) 4, new HeartbeatRequestData()
                    .setGroupId(GROUP).setMemberId("nobody").setGenerationId(1))).error();
        }
    }
}
