package io.tributary.broker.cluster;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Time;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's membership: the ephemeral {@code /brokers/ids/<id>} node holding its endpoint,
 * recreated by Curator whenever a new ZooKeeper session starts, and the cluster id at
 * {@code /cluster/id}.
 */
public final class BrokerRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BrokerRegistry.class);
    static final String CLUSTER_ID_PATH = "/cluster/id";
    private static final long EXPIRY_POLL_MS = 100;

    private final ZkClient zk;
    private final int brokerId;
    private final String host;
    private final int port;
    private final List<String> endpoints;
    private final Map<String, String> protocols;
    private final Time time;
    private PersistentNode registration;

    /**
     * @param host      the inter-broker listener's advertised host (the registration's {@code host} and {@code port})
     * @param endpoints every advertised listener, {@code NAME://host:port}
     * @param protocols each listener name's security protocol
     */
    public BrokerRegistry(ZkClient zk, int brokerId, String host, int port, List<String> endpoints,
                          Map<String, String> protocols, Time time) {
        this.zk = zk;
        this.brokerId = brokerId;
        this.host = host;
        this.port = port;
        this.endpoints = List.copyOf(endpoints);
        this.protocols = Map.copyOf(protocols);
        this.time = time;
    }

    public static String brokerPath(int brokerId) {
        return "/brokers/ids/" + brokerId;
    }

    /**
     * Creates the registration and waits for it to exist.
     *
     * <p>A registration left by an earlier process of this broker (killed, or on a machine that lost power) stays
     * until ZooKeeper expires that process's session. It must not be taken over: the new registration has to be a
     * new node, whose creation zxid tells the controller that this broker restarted and tells this broker which
     * partition states predate it (see {@code LeaderElection}). So this first waits for the old one to expire —
     * or, when this broker runs the ZooKeeper server itself ({@code staleMayBeDeleted}), deletes it: the process
     * that owned it hosted that server and is certainly gone.
     *
     * @throws TimeoutException if the earlier registration outlives its session plus {@code timeoutMs}, or
     *                          ZooKeeper does not confirm the new one within {@code timeoutMs}
     */
    public void register(long timeoutMs, boolean staleMayBeDeleted) throws InterruptedException {
        awaitNoEarlierRegistration(timeoutMs, staleMayBeDeleted);
        registration = new PersistentNode(zk.curator(), CreateMode.EPHEMERAL, false, brokerPath(brokerId), registrationJson());
        registration.start();
        if (!registration.waitForInitialCreate(timeoutMs, TimeUnit.MILLISECONDS)) {
            throw new TimeoutException("could not register " + brokerPath(brokerId) + " in ZooKeeper within " + timeoutMs + " ms");
        }
        log.info("registered broker {} at {} as {}:{}", brokerId, brokerPath(brokerId), host, port);
    }

    private void awaitNoEarlierRegistration(long timeoutMs, boolean staleMayBeDeleted) throws InterruptedException {
        String path = brokerPath(brokerId);
        Stat earlier = stat(path);
        if (earlier == null) {
            return;
        }
        if (staleMayBeDeleted) {
            log.info("deleting the registration of an earlier process of broker {} (ZooKeeper session 0x{})", brokerId,
                    Long.toHexString(earlier.getEphemeralOwner()));
            zk.deleteIfVersion(path, earlier.getVersion());
            return;
        }
        long waitMs = sessionTimeoutMs() + timeoutMs;
        log.info("waiting up to {} ms for the registration of an earlier process of broker {} (ZooKeeper session 0x{}) "
                + "to expire", waitMs, brokerId, Long.toHexString(earlier.getEphemeralOwner()));
        long deadline = time.milliseconds() + waitMs;
        while (stat(path) != null) {
            if (time.milliseconds() >= deadline) {
                throw new TimeoutException(path + " is still registered by ZooKeeper session 0x"
                        + Long.toHexString(earlier.getEphemeralOwner()) + " after " + waitMs
                        + " ms: is another broker running with broker.id=" + brokerId + "?");
            }
            Thread.sleep(EXPIRY_POLL_MS);
        }
        log.info("the earlier registration of broker {} has expired", brokerId);
    }

    private Stat stat(String path) {
        try {
            return zk.curator().checkExists().forPath(path);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("interrupted while reading " + path);
        } catch (Exception e) {
            throw new TimeoutException("ZooKeeper unavailable: could not read " + path + ": " + e.getMessage(), e);
        }
    }

    /** The session timeout ZooKeeper granted this client, which an earlier process of this broker most likely had too. */
    private long sessionTimeoutMs() {
        try {
            return zk.curator().getZookeeperClient().getZooKeeper().getSessionTimeout();
        } catch (Exception e) {
            throw new TimeoutException("ZooKeeper unavailable: " + e.getMessage(), e);
        }
    }

    private byte[] registrationJson() {
        ObjectNode node = Json.object();
        node.put("version", 5);
        node.put("host", host);
        node.put("port", port);
        endpoints.forEach(node.putArray("endpoints")::add);
        ObjectNode protocolMap = node.putObject("listener_security_protocol_map");
        protocols.forEach(protocolMap::put);
        node.put("jmx_port", -1);
        node.put("timestamp", Long.toString(time.milliseconds()));
        return Json.bytes(node);
    }

    /** The cluster id, created by the first broker that asks. */
    public String clusterId() {
        ObjectNode node = Json.object();
        node.put("version", "1");
        node.put("id", Uuid.randomUuid().toString());
        zk.createIfAbsent(CLUSTER_ID_PATH, Json.bytes(node));
        byte[] stored = zk.read(CLUSTER_ID_PATH).orElseThrow(() -> new IllegalStateException(CLUSTER_ID_PATH + " vanished")).data();
        return Json.parse(stored, CLUSTER_ID_PATH).path("id").asText();
    }

    /** Deregisters: deletes the ephemeral node now rather than at session expiry. */
    @Override
    public void close() throws IOException {
        if (registration != null) {
            registration.close();
            registration = null;
        }
    }
}
