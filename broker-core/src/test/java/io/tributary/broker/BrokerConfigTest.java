package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BrokerConfigTest {
    @Test
    void defaultsMatchTheDocumentedOnes() {
        BrokerConfig config = new BrokerConfig(Map.of());
        assertThat(config.brokerId()).isZero();
        assertThat(config.listener()).isEqualTo(new BrokerConfig.ListenerAddress("127.0.0.1", 9092));
        assertThat(config.zookeeperConnect()).isEmpty();
        assertThat(config.zookeeperEmbeddedPort()).isEqualTo(2181);
        assertThat(config.socketServerConfig().maxRequestBytes()).isEqualTo(100 * 1024 * 1024);
        assertThat(config.socketServerConfig().maxIdleMs()).isEqualTo(600_000);
        assertThat(config.autoCreateTopics()).isTrue();
        assertThat(config.defaultPartitions()).isEqualTo(1);
        assertThat(config.logDirs()).containsExactly(Path.of("/tmp/tributary-logs"));
        assertThat(config.logDefaults().maxMessageBytes()).isEqualTo(1024 * 1024 + 12);
    }

    @Test
    void readsListenersWithAnyPortIncludingZero() {
        assertThat(new BrokerConfig(Map.of("listeners", "PLAINTEXT://localhost:0")).listener())
                .isEqualTo(new BrokerConfig.ListenerAddress("localhost", 0));
        assertThat(new BrokerConfig(Map.of("listeners", "PLAINTEXT://:9093")).listener())
                .isEqualTo(new BrokerConfig.ListenerAddress("0.0.0.0", 9093));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:9092", "SSL://host:9092", "PLAINTEXT://host", "PLAINTEXT://host:port",
            "PLAINTEXT://host:70000", "PLAINTEXT://a:1,PLAINTEXT://b:2"})
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
    void logKeysAreDeclaredOnceInTheSameSchema() {
        assertThat(BrokerConfig.configDef().names()).contains("log.dirs", "log.retention.hours", "message.max.bytes",
                "listeners", "zookeeper.connect", "socket.request.max.bytes");
    }
}
