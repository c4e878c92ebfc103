package io.tributary.broker.testing;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** A plain ZooKeeper client, as an operator's tool or an intruder would use one, outside the broker's own client. */
public final class ZooKeeperSessions {
    private ZooKeeperSessions() {
    }

    /** A client with a session, waiting up to 30 s for it. */
    public static ZooKeeper connect(String connectString) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper client = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("no ZooKeeper session with " + connectString + " within 30 s");
        }
        return client;
    }
}
