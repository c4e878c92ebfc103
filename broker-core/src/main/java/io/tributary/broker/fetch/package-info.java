/**
 * Incremental fetch sessions (KIP-227): a fetcher (a consumer, or a follower broker) that follows many partitions
 * sends them all once; the broker keeps them in a session, and from then on each fetch names only the partitions
 * whose request changed (a new fetch offset) and is answered only with the partitions that changed (records, a
 * moved high watermark, last stable offset or log start, an error). {@link io.tributary.broker.fetch.FetchSessions}
 * turns each Fetch into a {@link io.tributary.broker.fetch.FetchContext}: what to read, and how to answer what was
 * read. {@link io.tributary.broker.fetch.FetchSessionCache} bounds the sessions by
 * {@code max.incremental.fetch.session.cache.slots} with Kafka's eviction rules. Knows kafka-clients' message
 * classes only: reading the partitions is the API layer's business. Thread-safe.
 */
package io.tributary.broker.fetch;
