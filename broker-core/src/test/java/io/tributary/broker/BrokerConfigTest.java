package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.util.Map;
import io.tributary.broker.network.ChannelSecurity;
import io.tributary.broker.network.SocketServerConfig;
import io.tributary.broker.security.Listener;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BrokerConfigTest {
    @Test
    void defaultsMatchTheDocumentedOnes() {
        BrokerConfig config = new BrokerConfig(Map.of());
        assertThat(config.brokerId()).isZero();
        assertThat(config.listeners().bound()).containsExactly(
                new Listener(ListenerName.normalised("PLAINTEXT"), SecurityProtocol.PLAINTEXT, "127.0.0.1", 9092));
        assertThat(config.listeners().interBrokerName()).isEqualTo(ListenerName.normalised("PLAINTEXT"));
        assertThat(config.zookeeperConnect()).isEmpty();
        assertThat(config.zookeeperEmbeddedPort()).isEqualTo(2181);
        SocketServerConfig socket = config.socketServerConfig(config.listeners().bound().get(0),
                ChannelSecurity.plaintext(ListenerName.normalised("PLAINTEXT")));
        assertThat(socket.maxRequestBytes()).isEqualTo(100 * 1024 * 1024);
        assertThat(socket.maxIdleMs()).isEqualTo(600_000);
        assertThat(config.autoCreateTopics()).isTrue();
        assertThat(config.defaultPartitions()).isEqualTo(1);
        assertThat(config.logDirs()).containsExactly(Path.of("/tmp/tributary-logs"));
        assertThat(config.logDefaults().maxMessageBytes()).isEqualTo(1024 * 1024 + 12);
    }

    @Test
    void readsListenersWithAnyPortIncludingZero() {
        assertThat(new BrokerConfig(Map.of("listeners", "PLAINTEXT://localhost:0")).listeners().bound())
                .extracting(Listener::host, Listener::port).containsExactly(tuple("localhost", 0));
        assertThat(new BrokerConfig(Map.of("listeners", "PLAINTEXT://:9093")).listeners().bound())
                .extracting(Listener::host, Listener::port).containsExactly(tuple("", 9093));
    }

    @Test
    void readsNamedListenersWithTheirProtocolsAdvertisedAddressesAndTheInterBrokerOne() {
        BrokerConfig config = new BrokerConfig(Map.of(
                "listeners", "CLIENTS://0.0.0.0:9093,REPLICATION://10.0.0.1:9094,PLAINTEXT://127.0.0.1:9092",
                "advertised.listeners", "CLIENTS://kafka.example.com:9093,REPLICATION://10.0.0.1:9094",
                "listener.security.protocol.map", "CLIENTS:SASL_SSL,REPLICATION:SSL,PLAINTEXT:PLAINTEXT",
                "inter.broker.listener.name", "REPLICATION",
                "listener.name.clients.ssl.keystore.location", "/etc/tributary/clients.p12",
                "listener.name.clients.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;"));
        assertThat(config.listeners().bound()).extracting(l -> l.name().value(), Listener::protocol, Listener::port)
                .containsExactly(tuple("CLIENTS", SecurityProtocol.SASL_SSL, 9093), tuple("REPLICATION", SecurityProtocol.SSL, 9094),
                        tuple("PLAINTEXT", SecurityProtocol.PLAINTEXT, 9092));
        assertThat(config.listeners().advertised(ListenerName.normalised("CLIENTS")).host()).isEqualTo("kafka.example.com");
        assertThat(config.listeners().advertised()).doesNotContainKey(ListenerName.normalised("PLAINTEXT"));
        assertThat(config.listeners().interBroker().protocol()).isEqualTo(SecurityProtocol.SSL);
        Map<String, Object> clients = config.securitySettings(config.listeners().bound().get(0));
        assertThat(clients.get("ssl.keystore.location")).isEqualTo("/etc/tributary/clients.p12");
        assertThat(clients).containsKey("scram-sha-512.sasl.jaas.config");
        assertThat(config.securitySettings(config.listeners().bound().get(1)).get("ssl.keystore.location")).isNull();
    }

    @Test
    void aSingleSecuredListenerIsAlsoTheInterBrokerOne() {
        BrokerConfig config = new BrokerConfig(Map.of("listeners", "SASL_SSL://127.0.0.1:9093"));
        assertThat(config.listeners().interBroker().protocol()).isEqualTo(SecurityProtocol.SASL_SSL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ssl.keystore.locaton", "listener.name.plaintext.ssl.trustsore.type", "sasl.enabled.mechanism",
            "listener.name.nosuch.ssl.keystore.location", "listener.name.plaintext.gssapi.sasl.jaas.config",
            "listener.name.plaintext.SCRAM-SHA-512.sasl.jaas.config"})
    void rejectsSecurityKeysTheBrokerWouldIgnore(String key) {
        assertThatThrownBy(() -> new BrokerConfig(Map.of(key, "x"))).isInstanceOf(ConfigException.class).hasMessageContaining(key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sasl.enabled.mechanisms=GSSAPI", "ssl.client.auth=sometimes",
            "inter.broker.listener.name=OTHER", "listener.security.protocol.map=PLAINTEXT:TLS",
            "authorizer.class.name=kafka.security.auth.SimpleAclAuthorizer", "super.users=admin"})
    void rejectsSecurityValuesItCannotServe(String setting) {
        String[] kv = setting.split("=", 2);
        assertThatThrownBy(() -> new BrokerConfig(Map.of(kv[0], kv[1]))).isInstanceOf(ConfigException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"io.tributary.broker.security.AclAuthorizer", "kafka.security.authorizer.AclAuthorizer"})
    void namesTheAuthorizerAsTributaryOrKafkasZooKeeperModeDoes(String className) {
        BrokerConfig config = new BrokerConfig(Map.of("authorizer.class.name", className, "super.users", "User:admin; User:broker"));
        assertThat(config.authorizerEnabled()).isTrue();
        assertThat(config.superUsers()).extracting(Object::toString).containsExactlyInAnyOrder("User:admin", "User:broker");
        assertThat(config.allowEveryoneIfNoAclFound()).isFalse();
        assertThat(new BrokerConfig(Map.of()).authorizerEnabled()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"listener.name.sasl_plaintext.sasl.enabled.mechanisms=GSSAPI",
            "listener.name.sasl_plaintext.sasl.mechanism.inter.broker.protocol=SCRAM-SHA-1",
            "sasl.mechanism.inter.broker.protocol=PLAIN"})
    void rejectsSaslMechanismsASaslListenerCannotServeWhenTheConfigIsRead(String setting) {
        String[] kv = setting.split("=", 2);
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listeners", "SASL_PLAINTEXT://127.0.0.1:0", kv[0], kv[1])))
                .isInstanceOf(ConfigException.class).hasMessageContaining("mechanism");
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:9092", "CLIENTS://host:9092", "PLAINTEXT://host", "PLAINTEXT://host:port",
            "PLAINTEXT://host:70000", "PLAINTEXT://a:1,PLAINTEXT://b:2", "SSL://a:1,SASL_SSL://a:2", ""})
    void rejectsListenersItCannotServe(String listeners) {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listeners", listeners))).isInstanceOf(ConfigException.class);
    }

    @Test
    void rejectsInvalidValues() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("num.partitions", "0"))).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> new BrokerConfig(Map.of("broker.id", "-1"))).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> new BrokerConfig(Map.of("log.segment.bytes", "big"))).isInstanceOf(ConfigException.class);
    }

    @Test
    void groupSizeLimitsHaveKafkasDefaultsAndAreAtLeastOne() {
        assertThat(new BrokerConfig(Map.of()).groupConfig().maxSize()).isEqualTo(Integer.MAX_VALUE);
        assertThat(new BrokerConfig(Map.of()).consumerGroupSettings().maxSize()).isEqualTo(Integer.MAX_VALUE);
        BrokerConfig limited = new BrokerConfig(Map.of("group.max.size", "10", "group.consumer.max.size", "20"));
        assertThat(limited.groupConfig().maxSize()).isEqualTo(10);
        assertThat(limited.consumerGroupSettings().maxSize()).isEqualTo(20);
        assertThatThrownBy(() -> new BrokerConfig(Map.of("group.max.size", "0"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("group.max.size");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("group.consumer.max.size", "0"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("group.consumer.max.size");
    }

    @Test
    void logKeysAreDeclaredOnceInTheSameSchema() {
        assertThat(BrokerConfig.configDef().names()).contains("log.dirs", "log.retention.hours", "message.max.bytes",
                "listeners", "zookeeper.connect", "socket.request.max.bytes");
    }

    @Test
    void httpListenersAreOffByDefaultAndTakeHttpAddresses() {
        assertThat(new BrokerConfig(Map.of()).httpListeners()).isEmpty();
        assertThat(new BrokerConfig(Map.of("http.listeners", "http://127.0.0.1:9095, http://localhost:0/")).httpListeners())
                .containsExactly(new java.net.InetSocketAddress("127.0.0.1", 9095), new java.net.InetSocketAddress("localhost", 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:9095", "https://127.0.0.1:9095", "http://127.0.0.1", "http://127.0.0.1:9095/metrics",
            "http://127.0.0.1:99999", "http://:9095"})
    void rejectsHttpListenersItCannotServe(String listeners) {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("http.listeners", listeners))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("http.listeners").hasMessageContaining("is not http://host:port");
    }

    @Test
    void delegationTokensAreOnWithASecretKeyOrKafkasOldNameForIt() {
        assertThat(new BrokerConfig(Map.of()).delegationTokens().enabled()).isFalse();
        assertThat(new BrokerConfig(Map.of("delegation.token.master.key", "old")).delegationTokens().secretKey()).contains("old");
        var both = new BrokerConfig(Map.of("delegation.token.master.key", "old", "delegation.token.secret.key", "new",
                "delegation.token.max.lifetime.ms", "1000")).delegationTokens();
        assertThat(both.secretKey()).contains("new");
        assertThat(both.maxLifetimeMs()).isEqualTo(1000);
        assertThat(both.expiryTimeMs()).isEqualTo(86_400_000L);
        assertThat(both.expiryCheckIntervalMs()).isEqualTo(3_600_000L);
    }
}
