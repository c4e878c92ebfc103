package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicAssignmentTest {
    @Test
    void aReassignmentPutsTheTargetFirstAndNamesWhatIsAddedAndRemoved() {
        Map.Entry<List<Integer>, TopicAssignment.Reassignment> moving = TopicAssignment.Reassignment.moving(List.of(0, 1), List.of(2, 1));
        assertThat(moving.getKey()).containsExactly(2, 1, 0);
        assertThat(moving.getValue().adding()).containsExactly(2);
        assertThat(moving.getValue().removing()).containsExactly(0);
        assertThat(TopicAssignment.Reassignment.moving(List.of(0, 1), List.of(1, 0)).getValue().isEmpty()).isTrue();
    }

    @Test
    void kafkasZooKeeperLayoutOfAReassignmentIsRead() {
        // As Kafka's ZooKeeper-mode controller wrote a topic node during a reassignment (KIP-455).
        String node = """
                {"version":3,"topic_id":"KMdXfm8pQ5KPBuLGZmUcWQ","partitions":{"0":[2,1,0],"1":[1,2]},
                 "adding_replicas":{"0":[2]},"removing_replicas":{"0":[0]}}""";
        TopicAssignment assignment = TopicStore.parseAssignment("orders", node.getBytes(StandardCharsets.UTF_8));
        assertThat(assignment.replicas().get(0)).containsExactly(2, 1, 0);
        assertThat(assignment.reassignments()).containsOnlyKeys(0);
        assertThat(assignment.targetReplicas(0)).containsExactly(2, 1);
        assertThat(assignment.originalReplicas(0)).containsExactly(1, 0);
        assertThat(assignment.targetReplicas(1)).containsExactly(1, 2);
        TopicAssignment done = assignment.withPartition(0, assignment.targetReplicas(0), null);
        assertThat(done.reassignments()).isEmpty();
        assertThat(done.replicas().get(0)).containsExactly(2, 1);
    }
}
