package io.tributary.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClientQuotaManagerTest {
    private final FakeTime time = new FakeTime();
    private final ClientQuotaEnforcer quotas = new ClientQuotaEnforcer(11, 1, ConnectionRateLimits.NONE, time);

    @AfterEach
    void close() {
        quotas.close();
    }

    private static ClientQuotaEntity client(String clientId) {
        java.util.HashMap<String, String> entries = new java.util.HashMap<>();
        entries.put(ClientQuotaEntity.CLIENT_ID, clientId);
        return new ClientQuotaEntity(entries);
    }

    @Test
    void aClientOverItsRateIsThrottledForAsLongAsItsRateNeedsToComeBack() {
        quotas.update(Map.of(client("slow"), Map.of(QuotaType.PRODUCE.configKey(), 1000.0)));
        // A new rate is measured over the whole window (10 full samples of 1 s) from the start.
        assertThat(quotas.recordBytes(QuotaType.PRODUCE, "ANONYMOUS", "slow", 10_000)).isZero();
        long throttleMs = quotas.recordBytes(QuotaType.PRODUCE, "ANONYMOUS", "slow", 10_000);
        assertThat(throttleMs).isEqualTo(10_000); // rate 2000/s against 1000/s: (2000 - 1000) / 1000 * 10 s
        assertThat(quotas.recordBytes(QuotaType.PRODUCE, "ANONYMOUS", "fast", 1_000_000)).isZero();
        assertThat(quotas.recordBytes(QuotaType.FETCH, "ANONYMOUS", "slow", 1_000_000)).isZero();

        time.sleep(throttleMs + 1000); // and the samples of the burst are out of the 11 s window
        assertThat(quotas.recordBytes(QuotaType.PRODUCE, "ANONYMOUS", "slow", 1)).isZero();
    }

    @Test
    void throttlesLastAtMostTheWholeWindowAndNewQuotasApplyAtOnce() {
        quotas.update(Map.of(client("slow"), Map.of(QuotaType.PRODUCE.configKey(), 1.0)));
        assertThat(quotas.recordBytes(QuotaType.PRODUCE, "ANONYMOUS", "slow", 1_000_000)).isEqualTo(11_000);
        quotas.update(Map.of(client("slow"), Map.of(QuotaType.PRODUCE.configKey(), 1_000_000.0)));
        assertThat(quotas.recordBytes(QuotaType.PRODUCE, "ANONYMOUS", "slow", 1_000_000)).isZero();
        quotas.update(Map.of());
        assertThat(quotas.recordBytes(QuotaType.PRODUCE, "ANONYMOUS", "slow", 100_000_000)).isZero();
    }

    @Test
    void requestTimeCountsInPercentOfOneThreadAndThrottlesAtMostOneSample() {
        quotas.update(Map.of(client("busy"), Map.of(QuotaType.REQUEST.configKey(), 10.0)));
        // 1 s of handler time over a 10 s window is 10 %: at the bound, not over it.
        assertThat(quotas.recordHandlerTime("ANONYMOUS", "busy", 1_000_000_000L)).isZero();
        // 20 % is (20 - 10) / 10 * 10 s = 10 s away from the bound, but Kafka throttles request time one sample at most.
        assertThat(quotas.recordHandlerTime("ANONYMOUS", "busy", 1_000_000_000L)).isEqualTo(1_000);
    }

    @Test
    void networkThreadTimeThrottlesNothingItselfButCountsAgainstTheNextRequest() {
        quotas.update(Map.of(client("tls"), Map.of(QuotaType.REQUEST.configKey(), 10.0)));
        quotas.recordNetworkThreadTime("ANONYMOUS", "tls", 1_500_000_000L); // 15 %: over the bound, recorded anyway
        // The next request's handler time is tiny, yet the rate it finds is over the quota.
        assertThat(quotas.recordHandlerTime("ANONYMOUS", "tls", 1_000)).isEqualTo(1_000);
        assertThat(quotas.recordHandlerTime("ANONYMOUS", "other", 1_000)).isZero();
    }

    @Test
    void quotaMetricsAreGaugesUnderTributaryNamesWhileTheirSensorsLive() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        quotas.bindTo(registry);
        quotas.update(Map.of(client("slow"), Map.of(QuotaType.PRODUCE.configKey(), 1000.0, QuotaType.REQUEST.configKey(), 50.0)));
        long throttleMs = quotas.recordBytes(QuotaType.PRODUCE, "ANONYMOUS", "slow", 20_000);
        quotas.recordThrottleTime(QuotaType.PRODUCE, "ANONYMOUS", "slow", throttleMs);
        quotas.recordHandlerTime("ANONYMOUS", "slow", 500_000_000L);

        // A client-id quota measures the client-id's rate: the user tag is empty, as in Kafka.
        assertThat(registry.get("tributary.quota.byte.rate").tags("quota", "produce", "user", "", "client_id", "slow").gauge().value())
                .isEqualTo(2_000.0); // 20,000 bytes over the 10 s the window counts at least
        assertThat(registry.get("tributary.quota.throttle.time.ms").tags("quota", "produce", "client_id", "slow").gauge().value())
                .isEqualTo(throttleMs).isPositive();
        assertThat(registry.get("tributary.quota.request.time.percent").tags("client_id", "slow").gauge().value()).isEqualTo(5.0);
        assertThat(registry.find("tributary.quota.byte.rate").tags("quota", "fetch").gauges()).isEmpty();

        quotas.update(Map.of());
        assertThat(registry.find("tributary.quota.byte.rate").gauges()).isEmpty();
        assertThat(registry.find("tributary.quota.throttle.time.ms").gauges()).isEmpty();
    }
}
