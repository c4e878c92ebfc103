package io.tributary.broker.metrics;

/** The fetch session cache as this broker reports it, read when scraped (the fetch package implements it). */
public interface FetchSessionGauges {
    /** Incremental fetch sessions open now (Kafka's NumIncrementalFetchSessions). */
    int sessions();

    /** Partitions over all open sessions (Kafka's NumIncrementalFetchPartitionsCached). */
    long cachedPartitions();

    /** Sessions evicted to make room for another since start-up (Kafka's IncrementalFetchSessionEvictionsPerSec counts these). */
    long evictions();
}
