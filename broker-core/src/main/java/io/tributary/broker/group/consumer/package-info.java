/**
 * The consumer group protocol of KIP-848 as state and rules, without threads or I/O: a group's
 * {@link io.tributary.broker.group.consumer.ConsumerMembership} (members, group epoch, target
 * assignment, partition owners), {@link io.tributary.broker.group.consumer.Reconciliation} (a member's
 * next epoch and partitions, revoking before assigning), {@link io.tributary.broker.group.consumer.TargetAssignor}
 * (Kafka's server-side assignors through their public interface) and
 * {@link io.tributary.broker.group.consumer.ConsumerGroupRecords} (Kafka's record layouts in
 * {@code __consumer_offsets}, written and replayed). The caller holds the group's monitor; the
 * coordinator that drives them is {@link io.tributary.broker.group.ConsumerGroupCoordinator}.
 */
package io.tributary.broker.group.consumer;
