package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import io.tributary.broker.cluster.ClientQuotaStore;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's SCRAM credentials and quotas live in one ZooKeeper node, {@code /config/users/<user>}, as in
 * Kafka: changing one must keep the other, and reading one must not trip over the other.
 */
@Timeout(60)
class UserNodeSharingTest {
    private static final ClientQuotaEntity ALICE = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice"));

    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private ZkClient zk;
    private ScramUsers users;
    private ClientQuotaStore quotas;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir, 0);
        zk = ZkClient.connect(server.connectString(), 10_000, 10_000);
        users = new ScramUsers(zk);
        quotas = new ClientQuotaStore(zk);
    }

    @AfterEach
    void stop() {
        zk.close();
        server.close();
    }

    @Test
    void aQuotaSetOnAUserWithCredentialsKeepsThemAndReadsOnlyQuotas() {
        users.put("alice", ScramMechanism.SCRAM_SHA_256, ScramUsers.credential(ScramMechanism.SCRAM_SHA_256, "secret", 4096));

        quotas.alter(ALICE, Map.of("producer_byte_rate", 1024.0));

        assertThat(users.all().get("alice")).containsOnlyKeys(ScramMechanism.SCRAM_SHA_256);
        assertThat(quotas.quotas(ALICE)).containsExactly(Map.entry("producer_byte_rate", 1024.0));
        assertThat(quotas.all()).containsExactly(Map.entry(ALICE, Map.of("producer_byte_rate", 1024.0)));
    }

    @Test
    void removingAUsersLastQuotaKeepsItsCredentials() {
        users.put("alice", ScramMechanism.SCRAM_SHA_512, ScramUsers.credential(ScramMechanism.SCRAM_SHA_512, "secret", 4096));
        quotas.alter(ALICE, Map.of("consumer_byte_rate", 2048.0));
        Map<String, Double> removal = new HashMap<>();
        removal.put("consumer_byte_rate", null);

        quotas.alter(ALICE, removal);

        assertThat(users.all().get("alice")).containsOnlyKeys(ScramMechanism.SCRAM_SHA_512);
        assertThat(quotas.quotas(ALICE)).isEmpty();
        assertThat(quotas.all()).isEmpty();
    }

    @Test
    void credentialsAddedToAUserWithAQuotaKeepTheQuota() {
        quotas.alter(ALICE, Map.of("request_percentage", 50.0));

        users.put("alice", ScramMechanism.SCRAM_SHA_256, ScramUsers.credential(ScramMechanism.SCRAM_SHA_256, "secret", 4096));
        users.delete("alice");

        assertThat(quotas.quotas(ALICE)).containsExactly(Map.entry("request_percentage", 50.0));
    }

    @Test
    void aUserNameThatNeedsEncodingHasOneNodeForCredentialsAndQuotas() throws Exception {
        String name = "alice@example.com/ops";
        ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, name));

        users.put(name, ScramMechanism.SCRAM_SHA_256, ScramUsers.credential(ScramMechanism.SCRAM_SHA_256, "secret", 4096));
        quotas.alter(entity, Map.of("producer_byte_rate", 1024.0));

        assertThat(zk.children(ScramUsers.USERS_PATH)).containsExactly("alice%40example.com%2Fops");
        assertThat(users.all()).containsOnlyKeys(name);
        assertThat(quotas.quotas(entity)).containsExactly(Map.entry("producer_byte_rate", 1024.0));
        try (ScramCredentialCache logins = ScramCredentialCache.start(zk, 10_000)) {
            assertThat(logins.cache(ScramMechanism.SCRAM_SHA_256).get(name)).as("the broker's login cache uses the real name").isNotNull();
        }
    }

    @Test
    void aDeleteThatLosesARaceWithAnotherWriterTriesAgain() {
        users.put("alice", ScramMechanism.SCRAM_SHA_256, ScramUsers.credential(ScramMechanism.SCRAM_SHA_256, "secret", 4096));
        ScramUsers otherBroker = new ScramUsers(zk);
        boolean[] raced = new boolean[1];

        users.update("alice", config -> {
            if (!raced[0]) { // between this delete's read and its write, another writer changes the node
                raced[0] = true;
                otherBroker.put("alice", ScramMechanism.SCRAM_SHA_512, ScramUsers.credential(ScramMechanism.SCRAM_SHA_512, "other", 4096));
            }
            config.removeAll();
        });

        assertThat(users.all()).doesNotContainKey("alice");
        assertThat(zk.read(ScramUsers.userPath("alice"))).isEmpty();
    }
}
