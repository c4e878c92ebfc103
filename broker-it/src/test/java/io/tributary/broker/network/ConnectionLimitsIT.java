package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.attack.GoodTraffic;
import io.tributary.testkit.attack.SlowSenders;
import io.tributary.testkit.wire.RawConnection;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * max.connections, max.connections.per.ip (+ overrides) and connections.max.partial.request.ms. The broker
 * registers as 127.0.0.1, so connections from there count as another broker's and are never refused; the
 * attacking clients connect from other loopback addresses.
 */
@Timeout(180)
class ConnectionLimitsIT {
    private static final String ATTACKER = "127.0.0.2";
    private static final String OVERRIDDEN = "127.0.0.3";

    @Test
    void idleConnectionsBeyondThePerAddressLimitAreClosedWhileGoodClientsWork(@TempDir Path dir) throws Exception {
        int limit = 1000;
        try (TestBroker broker = TestBroker.start(dir, Map.of("max.connections.per.ip", String.valueOf(limit),
                "max.connections.per.ip.overrides", OVERRIDDEN + ":3"))) {
            GoodTraffic.createTopic(broker.bootstrapServers(), "good");
            List<RawConnection> idle = new ArrayList<>();
            try {
                GoodTraffic traffic = GoodTraffic.start(broker.bootstrapServers(), "good", 100, 20);
                for (int i = 0; i < limit + 500; i++) {
                    idle.add(new RawConnection(ATTACKER, "127.0.0.1", broker.port()));
                }
                assertThat(idle.subList(limit, idle.size())).allSatisfy(refused ->
                        assertThat(refused.closedByBroker(Duration.ofSeconds(5))).isTrue());
                assertAnswered(idle.get(0));
                assertAnswered(idle.get(limit - 1));

                List<RawConnection> overridden = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    overridden.add(new RawConnection(OVERRIDDEN, "127.0.0.1", broker.port()));
                }
                idle.addAll(overridden);
                assertAnswered(overridden.get(2));
                assertThat(overridden.get(3).closedByBroker(Duration.ofSeconds(5))).isTrue();

                GoodTraffic.Result result = traffic.finish(Duration.ofSeconds(120));
                assertThat(result.failures()).isEmpty();
                assertThat(result.consumed()).containsExactlyElementsOf(GoodTraffic.expected(100));
            } finally {
                RawConnection.closeAll(idle);
            }
        }
    }

    @Test
    void theBrokerWideLimitNeverRefusesABrokersAddress(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("max.connections", "2"))) {
            List<RawConnection> connections = new ArrayList<>();
            try {
                connections.add(new RawConnection(ATTACKER, "127.0.0.1", broker.port()));
                connections.add(new RawConnection(ATTACKER, "127.0.0.1", broker.port()));
                assertAnswered(connections.get(1));
                RawConnection third = new RawConnection(ATTACKER, "127.0.0.1", broker.port());
                connections.add(third);
                assertThat(third.closedByBroker(Duration.ofSeconds(5))).isTrue();

                RawConnection fromBrokerAddress = new RawConnection("127.0.0.1", "127.0.0.1", broker.port());
                connections.add(fromBrokerAddress);
                assertAnswered(fromBrokerAddress);
            } finally {
                RawConnection.closeAll(connections);
            }
        }
    }

    @Test
    void slowSendersAreCutOffWhileGoodClientsWork(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("connections.max.partial.request.ms", "3000"));
             SlowSenders attack = new SlowSenders(50, Duration.ofMillis(100))) {
            GoodTraffic.createTopic(broker.bootstrapServers(), "good");
            attack.start("127.0.0.1", broker.port());
            long start = System.nanoTime();
            GoodTraffic.Result result = GoodTraffic.start(broker.bootstrapServers(), "good", 100, 20)
                    .finish(Duration.ofSeconds(120));
            assertThat(result.failures()).isEmpty();
            assertThat(result.consumed()).containsExactlyElementsOf(GoodTraffic.expected(100));
            Awaitility.await("every slow sender cut off").atMost(Duration.ofSeconds(30))
                    .until(() -> attack.outcomes().getOrDefault("cut off", 0) == 50);
            // A 1 KiB request at 10 bytes a second would take 100 s; the limit is 3 s.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
        }
    }

    private static void assertAnswered(RawConnection connection) throws IOException {
        connection.request(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                .setClientSoftwareName("test").setClientSoftwareVersion("1"));
    }
}
