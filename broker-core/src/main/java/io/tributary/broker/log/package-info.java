/**
 * The partition log: storage of record batches on disk, byte-compatible with Apache Kafka's log format.
 *
 * <p>On disk, each partition is a folder {@code <topic>-<partition>} under one of {@code log.dirs}, holding
 * segments named by their 20-digit base offset: {@code .log} (record batches v2 exactly as received),
 * {@code .index} (8-byte entries: relative offset, file position) and {@code .timeindex} (12-byte entries:
 * timestamp, relative offset). Each log dir also holds {@code recovery-point-offset-checkpoint}, a
 * {@code .kafka_cleanshutdown} marker after a clean stop, and a {@code .lock}.
 *
 * <p>Entry points: {@link io.tributary.broker.log.LogManager} (all partitions, background tasks, start-up and
 * shutdown), {@link io.tributary.broker.log.PartitionLog} (append, read, offsets by time, truncation) and
 * {@link io.tributary.broker.log.LogConfig} (every setting, declared as a {@code ConfigDef} schema).
 *
 * <p>Threading: per partition, appends, rolls, truncation and retention take one lock; reads take none and see
 * the batches below the published log end offset. The clock ({@code Time}) and the background scheduler are
 * injected. This package knows nothing of the network, ZooKeeper or groups.
 */
package io.tributary.broker.log;
