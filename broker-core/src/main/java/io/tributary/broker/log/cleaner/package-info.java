/**
 * Log compaction: {@link io.tributary.broker.log.cleaner.LogCleaner} picks logs with cleanup.policy
 * 'compact' and a cleaner rewrites their closed segments keeping the latest record per key (tombstones until
 * delete.retention.ms after the first clean that kept them). Offsets are never reordered or reused; each
 * cleaned segment is swapped in through {@link io.tributary.broker.log.PartitionLog#swapInCleaned}, which is
 * atomic and crash-safe.
 */
package io.tributary.broker.log.cleaner;
