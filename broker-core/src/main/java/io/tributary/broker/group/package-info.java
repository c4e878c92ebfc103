/**
 * Consumer groups (the classic protocol): {@link io.tributary.broker.group.GroupCoordinator} runs
 * membership and rebalances, {@link io.tributary.broker.group.OffsetManager} commits and fetches
 * offsets, {@link io.tributary.broker.group.OffsetStore} keeps them in the compacted internal topic
 * {@code __consumer_offsets}. A broker coordinates the groups of the offsets partitions it leads
 * ({@link io.tributary.broker.group.GroupServices} loads them when it becomes leader and drops them
 * when it stops). Groups live in memory, one monitor each; only committed offsets are durable, so
 * after a restart or a coordinator move every group starts Empty with its offsets and members rejoin.
 * Deadlines are checked against an injected {@link org.apache.kafka.common.utils.Time}.
 */
package io.tributary.broker.group;
