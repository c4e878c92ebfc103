package io.tributary.broker.group.consumer;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;

/**
 * A ConsumerGroupHeartbeat. Null fields are unchanged since the member's last heartbeat (KIP-848's
 * incremental requests); {@code owned} is null when the member did not report its partitions.
 */
public record ConsumerHeartbeat(String groupId, String memberId, int memberEpoch, String instanceId, String rackId,
                                int rebalanceTimeoutMs, List<String> subscribedTopicNames, String subscribedTopicRegex,
                                String serverAssignor, Map<Uuid, Set<Integer>> owned, String clientId, String clientHost) {
}
