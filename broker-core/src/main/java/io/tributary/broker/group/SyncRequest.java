package io.tributary.broker.group;

import java.util.Map;

/**
 * A SyncGroup as the coordinator sees it.
 *
 * @param protocolType null before SyncGroup v5
 * @param protocolName null before SyncGroup v5
 * @param assignments  the leader's assignment per member id; empty from followers
 */
public record SyncRequest(String groupId, int generationId, String memberId, String groupInstanceId,
                          String protocolType, String protocolName, Map<String, byte[]> assignments) {
}
