package io.tributary.broker.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import io.tributary.broker.log.LogConfig;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's dynamic configs, kept current by a Curator cache of {@code /config/brokers}: its own
 * {@code /config/brokers/<id>} over the cluster's {@code /config/brokers/<default>} (over server.properties, which
 * the caller applies beneath). Every change is handed to the listeners, so a config altered through any broker
 * reaches every broker. Thread-safe.
 */
public final class DynamicBrokerConfig implements AutoCloseable {
    public static final String LEADER_REPLICATION_THROTTLED_RATE = "leader.replication.throttled.rate";
    public static final String FOLLOWER_REPLICATION_THROTTLED_RATE = "follower.replication.throttled.rate";
    public static final String REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND = "replica.alter.log.dirs.io.max.bytes.per.second";
    /**
     * The keys that may change at runtime: the replication throttles (between brokers and between log dirs), and the
     * broker defaults of topic configs
     * (retention, segment size, message size...), which reach every log without an override of its own. The
     * scheduler's interval and unclean.leader.election.enable (the controller reads it at start-up) are not.
     */
    public static final Set<String> DYNAMIC_KEYS;
    private static final Logger log = LoggerFactory.getLogger(DynamicBrokerConfig.class);

    static {
        Set<String> keys = new TreeSet<>(List.of(LEADER_REPLICATION_THROTTLED_RATE, FOLLOWER_REPLICATION_THROTTLED_RATE,
                REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND));
        LogConfig.brokerSynonyms().values().forEach(keys::addAll);
        keys.remove(LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE);
        keys.remove(LogConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS);
        DYNAMIC_KEYS = Set.copyOf(keys);
    }

    private final CuratorCache cache;
    private final String ownEntity;
    private final List<Consumer<DynamicBrokerConfig>> listeners = new CopyOnWriteArrayList<>();
    private volatile Map<String, String> defaults = Map.of();
    private volatile Map<String, String> own = Map.of();

    private DynamicBrokerConfig(ZkClient zk, int brokerId) {
        this.cache = CuratorCache.build(zk.curator(), BrokerConfigStore.BROKERS_CONFIG_PATH);
        this.ownEntity = Integer.toString(brokerId);
    }

    /** Starts the watch and waits until the configs ZooKeeper holds are read. */
    public static DynamicBrokerConfig start(ZkClient zk, int brokerId, long timeoutMs) throws InterruptedException {
        DynamicBrokerConfig config = new DynamicBrokerConfig(zk, brokerId);
        CountDownLatch loaded = new CountDownLatch(1);
        config.cache.listenable().addListener(CuratorCacheListener.builder()
                .forAll((type, before, after) -> config.reload())
                .forInitialized(loaded::countDown)
                .build());
        config.cache.start();
        if (!loaded.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            config.close();
            throw new TimeoutException("could not read the dynamic broker configs from ZooKeeper within " + timeoutMs + " ms");
        }
        config.reload();
        return config;
    }

    /** {@code listener} hears of every change from now on (on a Curator thread). */
    public void addListener(Consumer<DynamicBrokerConfig> listener) {
        listeners.add(listener);
    }

    private synchronized void reload() {
        Map<String, String> newDefaults = read(BrokerConfigStore.DEFAULT_ENTITY);
        Map<String, String> newOwn = read(ownEntity);
        if (newDefaults.equals(defaults) && newOwn.equals(own)) {
            return;
        }
        defaults = newDefaults;
        own = newOwn;
        log.info("dynamic broker configs: {} (cluster default {})", newOwn, newDefaults);
        listeners.forEach(listener -> listener.accept(this));
    }

    private Map<String, String> read(String entity) {
        return cache.get(BrokerConfigStore.path(entity)).map(node -> {
            try {
                return Map.copyOf(BrokerConfigStore.parse(entity, node.getData()));
            } catch (RuntimeException e) {
                log.warn("ignoring unreadable {}", node.getPath());
                return Map.<String, String>of();
            }
        }).orElse(Map.of());
    }

    /** The cluster default's dynamic configs ({@code /config/brokers/<default>}). */
    public Map<String, String> clusterDefaults() {
        return defaults;
    }

    /** This broker's own dynamic configs ({@code /config/brokers/<id>}). */
    public Map<String, String> perBroker() {
        return own;
    }

    /** The dynamic configs in force here: this broker's own over the cluster default. */
    public Map<String, String> effective() {
        Map<String, String> merged = new HashMap<>(defaults);
        merged.putAll(own);
        return merged;
    }

    @Override
    public void close() {
        cache.close();
    }
}
