package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.AttackReport;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.GoodTraffic;
import io.tributary.broker.testing.RawConnection;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
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
            GoodTraffic.Result without = AttackReport.beforeTheAttack(broker.bootstrapServers(), 100);
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
                AttackReport.print("1,500 idle connections from one address (limit 1,000)", without, result);
            } finally {
                closeAll(idle);
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
                closeAll(connections);
            }
        }
    }

    @Test
    void aRequestSentOneByteAtATimeIsCutOff(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("connections.max.partial.request.ms", "1000"));
             RawConnection slow = new RawConnection(ATTACKER, "127.0.0.1", broker.port())) {
            slow.write(new byte[] {0, 0, 4, 0}); // a 1 KiB request follows, one byte every 100 ms
            long start = System.nanoTime();
            boolean closed = false;
            for (int i = 0; i < 100 && !closed; i++) {
                try {
                    slow.write(new byte[] {1});
                    Thread.sleep(100);
                } catch (IOException e) {
                    closed = true;
                }
            }
            assertThat(closed || slow.closedByBroker(Duration.ofSeconds(5))).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(9));
        }
    }

    private static void assertAnswered(RawConnection connection) throws IOException {
        connection.request(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                .setClientSoftwareName("test").setClientSoftwareVersion("1"));
    }

    private static void closeAll(List<RawConnection> connections) {
        for (RawConnection connection : connections) {
            try {
                connection.close();
            } catch (IOException e) {
                // closed by the broker already
            }
        }
    }
}
