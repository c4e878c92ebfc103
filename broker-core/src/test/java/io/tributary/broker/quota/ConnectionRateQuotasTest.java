package io.tributary.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import io.tributary.broker.network.ConnectionRates;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** KIP-612's connection creation rates, measured over 2 samples of 1 s: the rate of a burst is its count per second. */
class ConnectionRateQuotasTest {
    private static final ListenerName EXTERNAL = ListenerName.normalised("EXTERNAL");
    private static final ListenerName INTERNAL = ListenerName.normalised("INTERNAL");
    private static final String RATE = "connection_creation_rate";
    private static final BooleanSupplier NOT_EXEMPT = () -> false;

    private final FakeTime time = new FakeTime();
    private ClientQuotaEnforcer quotas;

    @AfterEach
    void close() {
        quotas.close();
    }

    private ConnectionRates rates(ConnectionRateLimits limits) {
        quotas = new ClientQuotaEnforcer(2, 1, limits, time);
        return quotas.connectionRates();
    }

    private static ClientQuotaEntity ip(String ip) {
        Map<String, String> entries = new HashMap<>();
        entries.put(ClientQuotaEntity.IP, ip); // null: the default
        return new ClientQuotaEntity(entries);
    }

    private static InetAddress address(String ip) throws Exception {
        return InetAddress.getByName(ip);
    }

    @Test
    void anAddressOverItsRateIsThrottledAtMostOneSampleAndItsRefusedConnectionsDoNotCount() throws Exception {
        ConnectionRates rates = rates(ConnectionRateLimits.NONE);
        quotas.update(Map.of(ip("10.0.0.1"), Map.of(RATE, 2.0), ip(null), Map.of(RATE, 3.0), ip("10.0.0.9"), Map.of(RATE, 0.0)));
        long now = time.milliseconds();
        assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address("10.0.0.1"), NOT_EXEMPT, now)).isZero();
        assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address("10.0.0.1"), NOT_EXEMPT, now)).isZero();
        // 3 per second against 2: (3 - 2) / 2 of the 1 s window. Not counted, so the next one finds the same rate.
        assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address("10.0.0.1"), NOT_EXEMPT, now)).isEqualTo(500);
        assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address("10.0.0.1"), NOT_EXEMPT, now)).isEqualTo(500);
        // The default gives every other address a rate of its own.
        for (String other : new String[] {"10.0.0.2", "10.0.0.3"}) {
            for (int i = 0; i < 3; i++) {
                assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address(other), NOT_EXEMPT, now)).isZero();
            }
            assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address(other), NOT_EXEMPT, now)).isPositive();
        }
        // A rate of 0 refuses every connection, for one sample each.
        assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address("10.0.0.9"), NOT_EXEMPT, now)).isEqualTo(1000);

        quotas.update(Map.of(ip("10.0.0.1"), Map.of(RATE, 100.0)));
        assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address("10.0.0.1"), NOT_EXEMPT, now)).isZero();
        assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address("10.0.0.9"), NOT_EXEMPT, now)).as("no default any more").isZero();
    }

    @Test
    void theBrokerWideRateDelaysAcceptingExceptOnTheInterBrokerListenerWhichHasOnlyItsOwnRate() {
        ConnectionRates rates = rates(new ConnectionRateLimits(2, Map.of(INTERNAL, 1), Optional.of(INTERNAL)));
        long now = time.milliseconds();
        assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, now)).isZero();
        assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, now)).isZero();
        assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, now)).isEqualTo(500);
        assertThat(rates.recordAndGetAcceptDelayMs(INTERNAL, NOT_EXEMPT, now)).isZero();
        assertThat(rates.recordAndGetAcceptDelayMs(INTERNAL, NOT_EXEMPT, now)).isEqualTo(1000); // 2 per second against 1
        time.sleep(2_000); // both samples of the burst are out of the window
        assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, time.milliseconds())).isZero();
    }

    @Test
    void aConnectionRefusedForItsAddressIsTakenBackFromTheBrokerWideCount() throws Exception {
        ConnectionRates rates = rates(new ConnectionRateLimits(3, Map.of(), Optional.empty()));
        quotas.update(Map.of(ip("10.0.0.1"), Map.of(RATE, 1.0)));
        long now = time.milliseconds();
        for (int i = 0; i < 2; i++) {
            assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, now)).isZero();
            assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, address("10.0.0.1"), NOT_EXEMPT, now)).isEqualTo(i == 0 ? 0 : 1000);
        }
        // One taken so far: two more fit in the broker-wide rate of 3, the one after waits.
        assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, now)).isZero();
        assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, now)).isZero();
        assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, now)).isPositive();
    }

    @Test
    void anExemptConnectionIsTakenAtOnceAndCountedWithoutAThrottle() throws Exception {
        ConnectionRates rates = rates(new ConnectionRateLimits(1, Map.of(), Optional.empty()));
        quotas.update(Map.of(ip(null), Map.of(RATE, 1.0)));
        long now = time.milliseconds();
        InetAddress broker = address("10.0.0.5");
        for (int i = 0; i < 3; i++) {
            assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, () -> true, now)).isZero();
            assertThat(rates.recordAndGetIpThrottleMs(EXTERNAL, broker, () -> true, now)).isZero();
        }
        // They count: a client's connection now waits for the broker-wide rate.
        assertThat(rates.recordAndGetAcceptDelayMs(EXTERNAL, NOT_EXEMPT, now)).isEqualTo(1000);
    }
}
