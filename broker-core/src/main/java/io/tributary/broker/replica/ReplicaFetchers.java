package io.tributary.broker.replica;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import io.tributary.broker.controller.ClusterView.Endpoint;
import io.tributary.broker.log.remote.RemoteStorage;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * The fetcher threads of this broker: {@code num.replica.fetchers} per leader broker, each
 * partition on the one its hash picks. A fetcher left without partitions stops. Thread-safe.
 */
final class ReplicaFetchers implements AutoCloseable {
    private final ReplicationConfig config;
    private final IntFunction<Optional<Endpoint>> endpoints;
    private final ReplicationThrottle throttle;
    private final Optional<RemoteStorage> remoteStorage;
    private final Map<FetcherKey, ReplicaFetcher> fetchers = new HashMap<>();
    private final Map<TopicPartition, FetcherKey> assigned = new HashMap<>();

    private record FetcherKey(int leaderId, int index) {
    }

    ReplicaFetchers(ReplicationConfig config, IntFunction<Optional<Endpoint>> endpoints, ReplicationThrottle throttle,
                    Optional<RemoteStorage> remoteStorage) {
        this.config = config;
        this.remoteStorage = remoteStorage;
        this.endpoints = endpoints;
        this.throttle = throttle;
    }

    /** Fetches {@code partition} from {@code leaderId} at {@code leaderEpoch}, starting with truncation. */
    synchronized void follow(Partition partition, int leaderId, int leaderEpoch) {
        stop(partition.topicPartition());
        FetcherKey key = new FetcherKey(leaderId, Utils.abs(partition.topicPartition().hashCode()) % config.fetchers());
        ReplicaFetcher fetcher = fetchers.computeIfAbsent(key, k -> {
            ReplicaFetcher created = new ReplicaFetcher("tributary-replica-fetcher-" + k.leaderId() + "-" + k.index(), k.leaderId(),
                    config, endpoints, throttle, remoteStorage);
            created.start();
            return created;
        });
        fetcher.add(partition, leaderEpoch);
        assigned.put(partition.topicPartition(), key);
    }

    /** Stops fetching {@code partition}, if it was being fetched. */
    synchronized void stop(TopicPartition partition) {
        FetcherKey key = assigned.remove(partition);
        if (key == null) {
            return;
        }
        ReplicaFetcher fetcher = fetchers.get(key);
        fetcher.remove(partition);
        if (fetcher.isIdle()) {
            fetchers.remove(key);
            fetcher.shutdown();
        }
    }

    @Override
    public synchronized void close() {
        fetchers.values().forEach(ReplicaFetcher::shutdown);
        fetchers.clear();
        assigned.clear();
    }
}
