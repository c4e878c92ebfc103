package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.attack.GoodTraffic;
import io.tributary.testkit.attack.IdleConnections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** 10,000 idle connections (opened by a child JVM from 127.0.0.2) while a producer and consumer run, with default limits. */
@Timeout(240)
class TenThousandIdleConnectionsIT {
    private static final int IDLE = 10_000;

    @Test
    void tenThousandIdleConnectionsDoNotStopGoodClients(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of());
             IdleConnections attack = new IdleConnections(IDLE, "127.0.0.2")) {
            GoodTraffic.createTopic(broker.bootstrapServers(), "good");
            attack.start("127.0.0.1", broker.port());
            GoodTraffic.Result during = GoodTraffic.start(broker.bootstrapServers(), "good", 100, 20)
                    .finish(Duration.ofSeconds(150));
            assertThat(attack.holding()).isTrue();
            assertThat(during.failures()).isEmpty();
            assertThat(during.consumed()).containsExactlyElementsOf(GoodTraffic.expected(100));
        }
    }
}
