package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.testing.AttackReport;
import io.tributary.broker.testing.GoodTraffic;
import io.tributary.broker.testing.TestBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** 10,000 idle connections (opened by a child JVM from 127.0.0.2) while a producer and consumer run, with default limits. */
@Timeout(240)
class TenThousandIdleConnectionsIT {
    private static final int IDLE = 10_000;

    @Test
    void tenThousandIdleConnectionsDoNotStopGoodClients(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of())) {
            GoodTraffic.Result without = AttackReport.beforeTheAttack(broker.bootstrapServers(), 100);
            Process attacker = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m", "-cp", System.getProperty("java.class.path"), IdleConnectionsMain.class.getName(),
                    "127.0.0.2", "127.0.0.1", String.valueOf(broker.port()), String.valueOf(IDLE)))
                    .redirectErrorStream(true).start();
            try {
                BufferedReader output = new BufferedReader(new InputStreamReader(attacker.getInputStream(), StandardCharsets.UTF_8));
                assertThat(output.readLine()).isEqualTo("OPEN " + IDLE);
                GoodTraffic.Result during = GoodTraffic.start(broker.bootstrapServers(), "good", 100, 20)
                        .finish(Duration.ofSeconds(150));
                assertThat(attacker.isAlive()).isTrue();
                assertThat(during.failures()).isEmpty();
                assertThat(during.consumed()).containsExactlyElementsOf(GoodTraffic.expected(100));
                AttackReport.print("10,000 idle connections", without, during);
            } finally {
                attacker.getOutputStream().close();
                if (!attacker.waitFor(30, TimeUnit.SECONDS)) {
                    attacker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
