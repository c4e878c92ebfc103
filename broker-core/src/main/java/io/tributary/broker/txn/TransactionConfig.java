package io.tributary.broker.txn;

/**
 * The transaction coordinator's settings (Kafka's keys): the {@code __transaction_state} topic's shape, the largest
 * timeout a producer may ask for, how often timed-out transactions are aborted, after how long an idle
 * transactional id is forgotten and how often that is checked, and how long a state write may wait for the topic's ISR.
 */
public record TransactionConfig(int stateLogPartitions, short stateLogReplicationFactor, int stateLogMinIsr,
                                int stateLogSegmentBytes, int maxTimeoutMs, int abortTimedOutIntervalMs,
                                int idExpirationMs, int removeExpiredIntervalMs, int writeTimeoutMs) {
}
