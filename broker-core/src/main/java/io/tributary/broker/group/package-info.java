/**
 * Consumer groups (the classic protocol): {@link io.tributary.broker.group.GroupCoordinator} runs
 * membership and rebalances, {@link io.tributary.broker.group.OffsetManager} commits and fetches
 * offsets, {@link io.tributary.broker.group.OffsetStore} keeps them in the compacted internal topic
 * {@code __consumer_offsets}. Groups live in memory, one monitor each; only committed offsets are
 * durable, so after a restart every group starts Empty with its offsets and members rejoin.
 * Deadlines are checked against an injected {@link org.apache.kafka.common.utils.Time}.
 */
package io.tributary.broker.group;
