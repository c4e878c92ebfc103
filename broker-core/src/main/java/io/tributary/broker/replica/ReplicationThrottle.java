package io.tributary.broker.replica;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.SimpleRate;
import org.apache.kafka.common.utils.Time;

/**
 * One side's replication throttle, as Kafka's ReplicationQuotaManager: the bytes moved for throttled replicas are
 * measured over 11 one-second samples, and while their rate is above {@code leader.replication.throttled.rate} (or
 * the follower's) throttled replicas outside the ISR move nothing more. Which replicas are throttled is each topic's
 * {@code *.replication.throttled.replicas}. The rate changes at runtime (dynamic broker configs). Thread-safe.
 */
public final class ReplicationThrottle {
    public static final long UNTHROTTLED = Long.MAX_VALUE;
    private static final int SAMPLES = 11;

    private final Metrics metrics;
    private final Sensor sensor;
    private final MetricName rateName;
    private final Time time;
    private volatile long bytesPerSecond = UNTHROTTLED;

    /** @param side "leader" or "follower", for the metric's name */
    public ReplicationThrottle(String side, long bytesPerSecond, Time time) {
        this.time = time;
        this.metrics = new Metrics(new MetricConfig(), List.of(), time);
        this.rateName = metrics.metricName("byte-rate", side + "-replication-throttle");
        this.sensor = metrics.sensor(side + "-replication-bytes");
        sensor.add(rateName, new SimpleRate(), config(UNTHROTTLED));
        setRate(bytesPerSecond);
    }

    private static MetricConfig config(long bytesPerSecond) {
        return new MetricConfig().samples(SAMPLES).timeWindow(1, TimeUnit.SECONDS).quota(Quota.upperBound(bytesPerSecond));
    }

    public synchronized void setRate(long newBytesPerSecond) {
        bytesPerSecond = newBytesPerSecond;
        metrics.metrics().get(rateName).config(config(newBytesPerSecond));
    }

    public long rate() {
        return bytesPerSecond;
    }

    /** Is the rate of throttled bytes above the limit now? */
    boolean exceeded() {
        if (bytesPerSecond == UNTHROTTLED) {
            return false;
        }
        try {
            sensor.checkQuotas(time.milliseconds());
            return false;
        } catch (QuotaViolationException e) {
            return true;
        }
    }

    void record(long bytes) {
        sensor.record(bytes, time.milliseconds(), false);
    }

    /** Does a topic's {@code *.replication.throttled.replicas} list name {@code broker}'s replica of {@code partition}? */
    static boolean names(List<String> throttledReplicas, int partition, int broker) {
        if (throttledReplicas.isEmpty()) {
            return false;
        }
        String replica = partition + ":" + broker;
        return throttledReplicas.stream().map(String::trim).anyMatch(entry -> entry.equals("*") || entry.equals(replica));
    }
}
