package io.tributary.broker.quota;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Quota;

/**
 * How quota rates are measured: over {@code quota.window.num} samples of {@code quota.window.size.seconds} each, as in
 * Kafka (the client quotas and the connection creation rates alike).
 */
record QuotaWindow(int samples, int sizeSeconds) {
    /** The whole window: the longest a byte-rate throttle lasts. */
    long windowMs() {
        return TimeUnit.SECONDS.toMillis((long) samples * sizeSeconds);
    }

    /** One sample: the longest a request-time or connection-rate throttle lasts, as Kafka bounds them. */
    long sampleMs() {
        return TimeUnit.SECONDS.toMillis(sizeSeconds);
    }

    /** The config of a rate measured over this window; bounded by {@code quota} if not null. */
    MetricConfig metricConfig(Quota quota) {
        MetricConfig config = new MetricConfig().samples(samples).timeWindow(sizeSeconds, TimeUnit.SECONDS);
        return quota == null ? config : config.quota(quota);
    }
}
