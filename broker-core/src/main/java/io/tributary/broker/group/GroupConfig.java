package io.tributary.broker.group;

/**
 * The coordinator's settings (Kafka's {@code group.*} and {@code offsets.*} broker keys).
 *
 * @param minSessionTimeoutMs       smallest session.timeout.ms a member may ask for
 * @param maxSessionTimeoutMs       largest session.timeout.ms a member may ask for
 * @param initialRebalanceDelayMs   how long the first rebalance of an empty group waits for more members
 * @param offsetsRetentionMs        committed offsets of an empty group are dropped this long after it became empty
 * @param offsetsRetentionCheckIntervalMs how often expired offsets are looked for
 * @param offsetMetadataMaxBytes    largest metadata string accepted with a commit
 * @param maxSize                   most members a classic group may have ({@code group.max.size})
 */
public record GroupConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs,
                          long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes, int maxSize) {
}
