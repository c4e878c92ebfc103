package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The many-node operations against a real ZooKeeper server. Each ZooKeeper transaction gets one
 * zxid, so "one transaction" is checked as "the zxid moved by one".
 */
class ZkClientTest {
    private static final String TOPIC = "/brokers/topics/t";

    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private ZkClient zk;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir, 0);
        zk = ZkClient.connect(server.connectString(), 10_000, 10_000);
    }

    @AfterEach
    void stop() {
        zk.close();
        server.close();
    }

    @Test
    void createsManyNodesAndTheirMissingParentsInOneTransaction() throws Exception {
        zk.write(TOPIC, bytes("assignment"));

        assertThat(transactionsDuring(() -> zk.createAllIfAbsentUnder(TOPIC, states(0, 1, 2)))).isOne();
        for (int partition = 0; partition < 3; partition++) {
            assertThat(text(statePath(partition))).isEqualTo("state-" + partition);
        }
    }

    @Test
    void whenSomeNodesExistTheRestAreCreatedOneByOneAndTheExistingKept() throws Exception {
        zk.write(TOPIC, bytes("assignment"));
        zk.createIfAbsentUnder(TOPIC, statePath(1), bytes("kept"));

        zk.createAllIfAbsentUnder(TOPIC, states(0, 1, 2));

        assertThat(text(statePath(0))).isEqualTo("state-0");
        assertThat(text(statePath(1))).isEqualTo("kept");
        assertThat(text(statePath(2))).isEqualTo("state-2");
    }

    @Test
    void aDeletedAncestorIsNotBroughtBack() {
        zk.createAllIfAbsentUnder(TOPIC, states(0, 1));

        assertThat(zk.read(TOPIC)).isEmpty();
        assertThat(zk.children("/brokers/topics")).isEmpty();
    }

    @Test
    void deletesSeveralTreesInOneTransactionAndIgnoresAbsentOnes() throws Exception {
        zk.write(TOPIC, bytes("assignment"));
        zk.createAllIfAbsentUnder(TOPIC, states(0, 1, 2));
        zk.write("/config/topics/t", bytes("config"));
        zk.write("/config/topics/other", bytes("kept"));

        assertThat(transactionsDuring(() -> zk.deleteRecursively(TOPIC, "/config/topics/t", "/no/such/node"))).isOne();
        assertThat(zk.read(TOPIC)).isEmpty();
        assertThat(zk.read("/config/topics/t")).isEmpty();
        assertThat(zk.children("/config/topics")).containsExactly("other");
    }

    private static Map<String, byte[]> states(int... partitions) {
        Map<String, byte[]> nodes = new LinkedHashMap<>();
        for (int partition : partitions) {
            nodes.put(statePath(partition), bytes("state-" + partition));
        }
        return nodes;
    }

    private static String statePath(int partition) {
        return TOPIC + "/partitions/" + partition + "/state";
    }

    /** How many transactions ZooKeeper committed while {@code operation} ran (nothing else writes here). */
    private long transactionsDuring(Runnable operation) throws Exception {
        long first = probe();
        operation.run();
        return probe() - first - 2; // less the first probe's delete and the second probe's create
    }

    /** Creates and deletes a node; the zxid of the create. */
    private long probe() throws Exception {
        Stat stat = new Stat();
        String path = zk.curator().create().storingStatIn(stat).forPath("/probe");
        zk.curator().delete().forPath(path);
        return stat.getCzxid();
    }

    private String text(String path) {
        return new String(zk.read(path).orElseThrow().data(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
