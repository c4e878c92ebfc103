package io.tributary.broker.cluster;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Time;
import org.apache.zookeeper.CreateMode;
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

    private final ZkClient zk;
    private final int brokerId;
    private final String host;
    private final int port;
    private final Time time;
    private PersistentNode registration;

    public BrokerRegistry(ZkClient zk, int brokerId, String host, int port, Time time) {
        this.zk = zk;
        this.brokerId = brokerId;
        this.host = host;
        this.port = port;
        this.time = time;
    }

    public static String brokerPath(int brokerId) {
        return "/brokers/ids/" + brokerId;
    }

    /**
     * Creates the registration and waits for it to exist.
     *
     * @throws TimeoutException if ZooKeeper does not confirm it within {@code timeoutMs}
     */
    public void register(long timeoutMs) throws InterruptedException {
        registration = new PersistentNode(zk.curator(), CreateMode.EPHEMERAL, false, brokerPath(brokerId), registrationJson());
        registration.start();
        if (!registration.waitForInitialCreate(timeoutMs, TimeUnit.MILLISECONDS)) {
            throw new TimeoutException("could not register " + brokerPath(brokerId) + " in ZooKeeper within " + timeoutMs + " ms");
        }
        log.info("registered broker {} at {} as {}:{}", brokerId, brokerPath(brokerId), host, port);
    }

    private byte[] registrationJson() {
        ObjectNode node = Json.object();
        node.put("version", 5);
        node.put("host", host);
        node.put("port", port);
        node.putArray("endpoints").add("PLAINTEXT://" + host + ":" + port);
        node.putObject("listener_security_protocol_map").put("PLAINTEXT", "PLAINTEXT");
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
