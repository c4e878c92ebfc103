package io.tributary.benchmarks.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerFlavorTest {
    private static final BrokerSettings WITH_TLS = BrokerSettings.standard().with("ssl.keystore.location", "/k.p12");

    @Test
    void tributaryOpensAnSslListenerBesidePlaintextWhenGivenAPort(@TempDir Path dir) throws IOException {
        BrokerLaunch launch = BrokerFlavor.TRIBUTARY.launch(dir, WITH_TLS, OptionalInt.of(40001));
        Properties config = properties(Path.of(launch.arguments().get(0)));
        assertThat(config.getProperty("listeners")).isEqualTo("PLAINTEXT://" + launch.bootstrapServers().get().orElseThrow()
                + ",SSL://127.0.0.1:40001");
        assertThat(config.getProperty("ssl.keystore.location")).isEqualTo("/k.p12");

        Properties plain = properties(Path.of(BrokerFlavor.TRIBUTARY.launch(dir, BrokerSettings.standard()).arguments().get(0)));
        assertThat(plain.getProperty("listeners")).startsWith("PLAINTEXT://").doesNotContain("SSL");
    }

    @Test
    void kafkaIsAskedForAnSslListenerBesidePlaintextWhenGivenAPort(@TempDir Path dir) throws IOException {
        assertThat(BrokerFlavor.APACHE_KAFKA.launch(dir, WITH_TLS, OptionalInt.of(40002)).arguments())
                .contains("--listener=SSL:40002", "ssl.keystore.location=/k.p12");
        assertThat(BrokerFlavor.APACHE_KAFKA.launch(dir, BrokerSettings.standard()).arguments())
                .noneMatch(argument -> argument.startsWith(KafkaBrokerMain.LISTENER_OPTION));
    }

    private static Properties properties(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        return properties;
    }
}
