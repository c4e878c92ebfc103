package io.tributary.consumer;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Closes a metrics interval every {@code interval}: samples each partition's counters and lag,
 * publishes the figures for {@link RealtimeConsumer#metrics()} and logs one line per partition.
 * {@link #maybeSample} runs on the poll thread (it asks the consumer for lag); {@link #latest}
 * may be called from any thread.
 */
final class MetricsReporter {
    private static final Logger log = LoggerFactory.getLogger(MetricsReporter.class);

    private final Time time;
    private final long intervalNanos;
    private final boolean logEnabled;
    private long intervalStartNanos;
    private volatile Map<TopicPartition, PartitionStats> latest = Map.of();

    MetricsReporter(Time time, Duration interval, boolean logEnabled) {
        this.time = time;
        this.intervalNanos = interval.toNanos();
        this.logEnabled = logEnabled;
        this.intervalStartNanos = time.nanoseconds();
    }

    void maybeSample(Consumer<?, ?> consumer, Collection<PartitionWorker> workers) {
        long now = time.nanoseconds();
        long elapsed = now - intervalStartNanos;
        if (elapsed < intervalNanos) {
            return;
        }
        intervalStartNanos = now;
        Map<TopicPartition, PartitionStats> sample = new TreeMap<>(
                (a, b) -> a.topic().equals(b.topic()) ? Integer.compare(a.partition(), b.partition())
                        : a.topic().compareTo(b.topic()));
        Set<TopicPartition> paused = consumer.paused();
        for (PartitionWorker worker : workers) {
            PartitionStats stats = worker.metrics().sample(elapsed, lag(consumer, worker), worker.queued(),
                    paused.contains(worker.partition()));
            sample.put(worker.partition(), stats);
            if (logEnabled) {
                log.info("{}", stats);
            }
        }
        latest = Collections.unmodifiableMap(sample);
    }

    Map<TopicPartition, PartitionStats> latest() {
        return latest;
    }

    /** Log end offset minus the next offset this consumer still has to finish. */
    private static OptionalLong lag(Consumer<?, ?> consumer, PartitionWorker worker) {
        TopicPartition partition = worker.partition();
        OptionalLong fetchLag = consumer.currentLag(partition);
        if (fetchLag.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            long position = consumer.position(partition, Duration.ZERO);
            long next = worker.nextOffsetToFinish();
            long logEnd = position + fetchLag.getAsLong();
            return OptionalLong.of(logEnd - (next < 0 ? position : next));
        } catch (KafkaException positionUnknown) {
            return OptionalLong.empty();
        }
    }
}
