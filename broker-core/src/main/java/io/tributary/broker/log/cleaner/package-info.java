/**
 * Log compaction: {@link io.tributary.broker.log.cleaner.LogCleaner} picks logs with cleanup.policy
 * 'compact' and a cleaner rewrites their closed segments below the last stable offset keeping the latest committed
 * record per key (tombstones, and markers once no data of their transaction is left, until delete.retention.ms after
 * the first clean that could drop them), as Kafka's cleaner does. Offsets are never reordered or reused; each
 * cleaned segment is swapped in through {@link io.tributary.broker.log.PartitionLog#swapInCleaned}, which is
 * atomic and crash-safe.
 */
package io.tributary.broker.log.cleaner;
