package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import io.tributary.broker.security.Listener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TributaryServerTest {
    @TempDir
    Path dir;

    @Test
    void overridesWinOverTheFile() throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "broker.id=3\nnum.partitions=2\n");
        Properties props = TributaryServer.properties(new String[] {file.toString(), "--override", "num.partitions=6",
                "--override", "log.dirs=/data/a,/data/b"});
        assertThat(props).containsEntry("broker.id", "3").containsEntry("num.partitions", "6").containsEntry("log.dirs", "/data/a,/data/b");
    }

    @Test
    void rejectsMalformedArguments() throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "");
        assertThatThrownBy(() -> TributaryServer.properties(new String[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TributaryServer.properties(new String[] {file.toString(), "--override"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TributaryServer.properties(new String[] {file.toString(), "--override", "novalue"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TributaryServer.properties(new String[] {file.toString(), "extra"}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theShippedServerPropertiesAreAValidConfig() throws Exception {
        Path shipped = Path.of("..", "config", "server.properties");
        BrokerConfig config = new BrokerConfig(TributaryServer.properties(new String[] {shipped.toString()}));
        assertThat(config.brokerId()).isZero();
        assertThat(config.listeners().bound()).extracting(Listener::port).containsExactly(9092);
        assertThat(config.zookeeperConnect()).isEmpty();
        assertThat(config.httpListeners()).containsExactly(new java.net.InetSocketAddress("127.0.0.1", 9095));
    }
}
