/**
 * Consumer groups: {@link io.tributary.broker.group.GroupCoordinator} runs the classic protocol's
 * membership and rebalances, {@link io.tributary.broker.group.ConsumerGroupCoordinator} the consumer
 * protocol of KIP-848 over the same groups (its state and rules are in {@code group.consumer}); a
 * group moves between the two while it has members as {@link io.tributary.broker.group.GroupConversion}
 * allows, classic members of a consumer group taking part through
 * {@link io.tributary.broker.group.ClassicMembersOfConsumerGroups};
 * {@link io.tributary.broker.group.OffsetManager} commits and fetches offsets,
 * {@link io.tributary.broker.group.OffsetStore} keeps them and the consumer groups' records in the
 * compacted internal topic {@code __consumer_offsets}. A broker coordinates the groups of the offsets
 * partitions it leads ({@link io.tributary.broker.group.GroupServices} loads them when it becomes
 * leader and drops them when it stops). Groups live in memory, one monitor each; committed offsets
 * and groups are durable as Kafka keeps them ({@link io.tributary.broker.group.ClassicGroupRecords} a
 * classic group's generation and members, the consumer group records a consumer group's), so after a
 * restart or a coordinator move a group keeps its members, generation or epochs, and offsets; a deletion (DeleteGroups,
 * OffsetDelete) is answered only once its tombstones are replicated, so one a client was told of does not come back.
 * Deadlines are checked against an injected {@link org.apache.kafka.common.utils.Time}.
 */
package io.tributary.broker.group;
