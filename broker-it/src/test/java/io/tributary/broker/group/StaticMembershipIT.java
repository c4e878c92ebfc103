package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static membership with kafka-clients: a member with a group.instance.id that restarts within its session
 * timeout gets its old partitions back, and the other member sees no rebalance at all.
 */
class StaticMembershipIT {
    private static final String TOPIC = "static";
    private static final String GROUP = "static-g";
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aRestartedStaticMemberGetsItsPartitionsBackWithoutARebalance() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of(
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5"))) {
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 4, (short) 1))).all().get();
            }
            ConsumedRecords consumed = new ConsumedRecords();
            try (GroupMember leader = member(broker, "instance-a", consumed)) {
                Awaitility.await().atMost(DEADLINE).until(() -> leader.assignment().size() == 4);
                GroupMember follower = member(broker, "instance-b", consumed);
                Set<TopicPartition> followerPartitions;
                try {
                    Awaitility.await().atMost(DEADLINE)
                            .until(() -> leader.assignment().size() == 2 && follower.assignment().size() == 2);
                    followerPartitions = follower.assignment();
                } finally {
                    follower.close(); // a static member does not leave the group when it closes
                }
                int leaderRebalances = leader.rebalances();

                try (GroupMember restarted = member(broker, "instance-b", consumed)) {
                    Awaitility.await().atMost(DEADLINE).until(() -> restarted.assignment().size() == 2);

                    assertThat(restarted.assignment()).isEqualTo(followerPartitions);
                    assertThat(leader.rebalances()).as("the other member saw no rebalance").isEqualTo(leaderRebalances);
                    try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                        assertThat(admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).members())
                                .extracting(m -> m.groupInstanceId().orElse(null))
                                .containsExactlyInAnyOrder("instance-a", "instance-b");
                    }
                }
            }
        }
    }

    private static GroupMember member(TestBroker broker, String instanceId, ConsumedRecords consumed) {
        return GroupMember.start(instanceId, broker.bootstrapServers(), GROUP, TOPIC, consumed, Map.of(
                ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId,
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 30_000));
    }
}
