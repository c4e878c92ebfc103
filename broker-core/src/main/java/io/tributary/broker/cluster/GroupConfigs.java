package io.tributary.broker.cluster;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every group's own configs, kept current by a Curator cache of {@code /config/groups} on every broker, so that
 * whichever broker coordinates a group applies what was set through any broker. Thread-safe.
 */
public final class GroupConfigs implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupConfigs.class);

    private final CuratorCache cache;
    private final Map<String, Map<String, String>> byGroup = new ConcurrentHashMap<>();

    private GroupConfigs(ZkClient zk) {
        this.cache = CuratorCache.build(zk.curator(), GroupConfigStore.GROUPS_CONFIG_PATH);
    }

    /** Starts the watch and waits until the configs ZooKeeper holds are read. */
    public static GroupConfigs start(ZkClient zk, long timeoutMs) throws InterruptedException {
        GroupConfigs configs = new GroupConfigs(zk);
        CountDownLatch loaded = new CountDownLatch(1);
        configs.cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> configs.update(after))
                .forDeletes(configs::remove)
                .forInitialized(loaded::countDown)
                .build());
        configs.cache.start();
        if (!loaded.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            configs.close();
            throw new TimeoutException("could not read the group configs from ZooKeeper within " + timeoutMs + " ms");
        }
        return configs;
    }

    private void update(ChildData node) {
        group(node).ifPresent(group -> {
            try {
                Map<String, String> configs = Map.copyOf(GroupConfigStore.parse(group, node.getData()));
                if (configs.isEmpty()) {
                    byGroup.remove(group);
                } else {
                    byGroup.put(group, configs);
                }
                log.info("configs of group {}: {}", group, configs);
            } catch (RuntimeException e) {
                log.warn("ignoring unreadable {}", node.getPath());
            }
        });
    }

    private void remove(ChildData node) {
        group(node).ifPresent(byGroup::remove);
    }

    private static Optional<String> group(ChildData node) {
        String prefix = GroupConfigStore.GROUPS_CONFIG_PATH + "/";
        return node.getPath().startsWith(prefix)
                ? Optional.of(GroupConfigStore.group(node.getPath().substring(prefix.length())))
                : Optional.empty();
    }

    /** The group's own configs (empty if it has none). */
    public Map<String, String> of(String group) {
        return byGroup.getOrDefault(group, Map.of());
    }

    /** The groups that have configs of their own. */
    public Set<String> groups() {
        return Set.copyOf(byGroup.keySet());
    }

    @Override
    public void close() {
        cache.close();
    }
}
