package io.tributary.broker.quota;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import io.tributary.broker.cluster.ClientQuotaStore;
import io.tributary.broker.cluster.ZkClient;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;

/**
 * Keeps a {@link ClientQuotaEnforcer} in step with the quotas in ZooKeeper: Curator caches of
 * {@code /config/users}, {@code /config/clients} and {@code /config/ips}, and after every change the whole set applied
 * again (quota nodes are few, and changes rare), so a quota altered through any broker reaches every broker.
 */
public final class QuotaConfigWatcher implements AutoCloseable {
    private final List<CuratorCache> caches;
    private final ClientQuotaEnforcer enforcer;

    private QuotaConfigWatcher(ZkClient zk, ClientQuotaEnforcer enforcer) {
        this.caches = List.of(CuratorCache.build(zk.curator(), ClientQuotaStore.USERS_PATH),
                CuratorCache.build(zk.curator(), ClientQuotaStore.CLIENTS_PATH),
                CuratorCache.build(zk.curator(), ClientQuotaStore.IPS_PATH));
        this.enforcer = enforcer;
    }

    /** Starts the watches and waits until the quotas ZooKeeper holds are applied. */
    public static QuotaConfigWatcher start(ZkClient zk, ClientQuotaEnforcer enforcer, long timeoutMs)
            throws InterruptedException, TimeoutException {
        QuotaConfigWatcher watcher = new QuotaConfigWatcher(zk, enforcer);
        CountDownLatch loaded = new CountDownLatch(watcher.caches.size());
        for (CuratorCache cache : watcher.caches) {
            cache.listenable().addListener(CuratorCacheListener.builder()
                    .forAll((type, before, after) -> watcher.apply())
                    .forInitialized(loaded::countDown)
                    .build());
            cache.start();
        }
        if (!loaded.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            watcher.close();
            throw new TimeoutException("could not read the client quotas from ZooKeeper within " + timeoutMs + " ms");
        }
        watcher.apply();
        return watcher;
    }

    private synchronized void apply() {
        Map<String, byte[]> nodes = new HashMap<>();
        for (CuratorCache cache : caches) {
            cache.stream().forEach((ChildData node) -> nodes.put(node.getPath(), node.getData()));
        }
        enforcer.update(ClientQuotaStore.fromNodes(nodes));
    }

    @Override
    public void close() {
        caches.forEach(CuratorCache::close);
    }
}
