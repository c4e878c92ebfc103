package io.tributary.broker.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.group.CoordinatedGroup;
import io.tributary.broker.group.GroupServices;
import io.tributary.broker.metrics.PartitionLag;
import io.tributary.broker.replica.BrokerChannels;
import io.tributary.broker.replica.BrokerConnector;
import io.tributary.http.StatusPage;
import io.tributary.http.StatusPage.Row;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Time;

/**
 * What this broker tells about the cluster over HTTP: the status page ({@code GET /}) and the consumer groups' lag
 * for the {@code tributary_group_lag} gauges. Brokers, the controller, topics, partitions, leaders and ISRs come from
 * this broker's view of ZooKeeper (the same on every broker); consumer groups are those this broker coordinates, with
 * their lag against end offsets asked of the partitions' leaders. Called on the HTTP thread.
 */
public final class BrokerStatus implements AutoCloseable {
    /** How often the page reloads itself. */
    static final int REFRESH_SECONDS = 5;
    /** A scrape or a page must not hang on a broker that does not answer. */
    private static final int LEADER_TIMEOUT_MS = 5_000;

    private final int brokerId;
    private final String clusterId;
    private final ClusterView cluster;
    private final GroupLags groupLags;
    private final Time time;

    private BrokerStatus(int brokerId, String clusterId, ClusterView cluster, GroupLags groupLags, Time time) {
        this.brokerId = brokerId;
        this.clusterId = clusterId;
        this.cluster = cluster;
        this.groupLags = groupLags;
        this.time = time;
    }

    /** @param connector how to reach the other brokers' inter-broker listeners (for the end offsets) */
    public static BrokerStatus create(int brokerId, String clusterId, ClusterView cluster, GroupServices groups,
                                      BrokerConnector connector, Time time) {
        BrokerChannels channels = new BrokerChannels(cluster::broker, connector, "status-" + brokerId, LEADER_TIMEOUT_MS);
        return new BrokerStatus(brokerId, clusterId, cluster, new GroupLags(groups::coordinatedGroups,
                new EndOffsets(cluster, channels)), time);
    }

    /** The lag of each group this broker coordinates, per partition. */
    public List<PartitionLag> groupLags() {
        return groupLags.all();
    }

    /** The status page, as of now. */
    public String page() {
        StatusPage page = new StatusPage("Tributary broker " + brokerId, REFRESH_SECONDS)
                .note("cluster " + clusterId + "; brokers, topics and partitions as ZooKeeper has them; "
                        + "consumer groups coordinated by this broker");
        brokers(page);
        Map<TopicPartition, PartitionState> states = cluster.partitionStates();
        Set<Integer> live = cluster.liveBrokers().keySet();
        topics(page, states, live);
        partitions(page, states, live);
        groups(page, groupLags.reports());
        return page.render(Instant.ofEpochMilli(time.milliseconds()));
    }

    private void brokers(StatusPage page) {
        int controller = cluster.controllerId();
        List<Row> rows = new ArrayList<>();
        cluster.liveBrokers().forEach((id, endpoint) -> rows.add(Row.of(Integer.toString(id),
                endpoint.host() + ":" + endpoint.port(), String.join(", ", endpoint.listeners().keySet()),
                id == controller ? "controller" : "", id == brokerId ? "this broker" : "")));
        page.section("Brokers").note(controller < 0 ? "no active controller" : "controller: broker " + controller)
                .table("brokers", List.of("broker", "inter-broker address", "listeners", "role", ""), rows, List.of("broker"));
    }

    private void topics(StatusPage page, Map<TopicPartition, PartitionState> states, Set<Integer> live) {
        List<Row> rows = new ArrayList<>();
        for (String topic : cluster.topics()) {
            Optional<TopicAssignment> assignment = cluster.assignment(topic);
            if (assignment.isEmpty()) {
                continue;
            }
            int underReplicated = 0;
            int offline = 0;
            int replicationFactor = 0;
            for (int partition : assignment.get().replicas().keySet()) {
                PartitionState state = states.get(new TopicPartition(topic, partition));
                PartitionHealth health = health(state, assignment.get(), partition, live);
                underReplicated += health == PartitionHealth.UNDER_REPLICATED ? 1 : 0;
                offline += health == PartitionHealth.OFFLINE ? 1 : 0;
                replicationFactor = Math.max(replicationFactor, assignment.get().replicationFactor(partition));
            }
            rows.add(new Row(List.of(topic, Integer.toString(assignment.get().partitionCount()),
                    Integer.toString(replicationFactor), Integer.toString(underReplicated), Integer.toString(offline)),
                    underReplicated + offline > 0));
        }
        page.section("Topics").table("topics", List.of("topic", "partitions", "replication factor", "under-replicated", "offline"),
                rows, List.of("partitions", "replication factor", "under-replicated", "offline"));
    }

    /** Every partition of the topics clients made; the internal topics are only counted above. */
    private void partitions(StatusPage page, Map<TopicPartition, PartitionState> states, Set<Integer> live) {
        List<Row> rows = new ArrayList<>();
        for (String topic : cluster.topics()) {
            Optional<TopicAssignment> assignment = cluster.assignment(topic);
            if (Topic.isInternal(topic) || assignment.isEmpty()) {
                continue;
            }
            assignment.get().replicas().forEach((partition, replicas) -> {
                PartitionState state = states.get(new TopicPartition(topic, partition));
                PartitionHealth health = health(state, assignment.get(), partition, live);
                rows.add(new Row(List.of(topic, Integer.toString(partition),
                        state == null || !state.hasLeader() ? "none" : Integer.toString(state.leader()), ids(replicas),
                        state == null ? "" : ids(state.isr()), health.label), health != PartitionHealth.OK));
            });
        }
        page.section("Partitions").table("partitions", List.of("topic", "partition", "leader", "replicas", "ISR", "status"),
                rows, List.of("partition"));
    }

    private void groups(StatusPage page, List<GroupLags.GroupReport> reports) {
        List<Row> groupRows = new ArrayList<>();
        List<Row> memberRows = new ArrayList<>();
        List<Row> lagRows = new ArrayList<>();
        for (GroupLags.GroupReport report : reports) {
            CoordinatedGroup group = report.group();
            String id = group.listing().groupId();
            groupRows.add(Row.of(id, group.listing().type(), group.listing().state(), Integer.toString(group.members().size()),
                    Long.toString(report.totalLag())));
            group.members().forEach(member -> memberRows.add(Row.of(id, member.memberId(), member.clientId(), member.clientHost())));
            for (PartitionLag lag : report.lags()) {
                lagRows.add(Row.of(id, lag.partition().topic(), Integer.toString(lag.partition().partition()),
                        Long.toString(lag.committedOffset()), Long.toString(lag.endOffset()), Long.toString(lag.lag())));
            }
        }
        page.section("Consumer groups").note("coordinated by this broker; the others are on their coordinators' pages")
                .table("groups", List.of("group", "type", "state", "members", "lag"), groupRows, List.of("members", "lag"))
                .section("Members").table("members", List.of("group", "member", "client id", "host"), memberRows, List.of())
                .section("Lag").note("end offset (high watermark) minus committed offset, per partition")
                .table("lag", List.of("group", "topic", "partition", "committed offset", "end offset", "lag"), lagRows,
                        List.of("partition", "committed offset", "end offset", "lag"));
    }

    private enum PartitionHealth {
        OK("ok"), UNDER_REPLICATED("under-replicated"), OFFLINE("offline");

        final String label;

        PartitionHealth(String label) {
            this.label = label;
        }
    }

    /** Under-replicated as Kafka counts it: an ISR smaller than the replicas before any reassignment. */
    private static PartitionHealth health(PartitionState state, TopicAssignment assignment, int partition, Set<Integer> live) {
        if (state == null || !state.hasLeader() || !live.contains(state.leader())) {
            return PartitionHealth.OFFLINE;
        }
        boolean underReplicated = state.isr().size() < assignment.replicationFactor(partition);
        return underReplicated ? PartitionHealth.UNDER_REPLICATED : PartitionHealth.OK;
    }

    private static String ids(List<Integer> ids) {
        return String.join(",", ids.stream().map(String::valueOf).toList());
    }

    @Override
    public void close() {
        groupLags.close();
    }
}
