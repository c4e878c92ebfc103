/**
 * The realtime consumer: a high-level, at-least-once Kafka consumer for any Kafka-compatible
 * broker, built on kafka-clients only. Start with {@link io.tributary.consumer.RealtimeConsumer#builder()}.
 *
 * <p>Threading: one poll thread owns the {@code KafkaConsumer} (subscription, poll, pause/resume,
 * commits, rebalance callbacks, metrics sampling). Handlers run on a fixed pool of
 * {@code parallelism} worker threads; each assigned partition has a {@code PartitionWorker} whose
 * records are handled by at most one worker thread at a time, in offset order. The two sides meet
 * only in the partition worker's queue and its finished offset, both guarded by its monitor.
 * Public methods of {@code RealtimeConsumer} are safe from any thread.
 */
package io.tributary.consumer;
