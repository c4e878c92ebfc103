package io.tributary.consumer;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one thread that owns the Kafka consumer: polls, hands records to the partition workers,
 * pauses partitions whose queue is full and resumes them once drained, commits finished offsets
 * and samples metrics. It never waits for a handler while running (only on revocation and close,
 * bounded), so the consumer keeps calling poll() and stays in the group however slow the
 * handlers are. When it ends it commits what is finished, leaves the group and closes
 * {@code resources} (worker pool, dead-letter producer, deserializers).
 */
final class PollLoop implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(PollLoop.class);
    private static final Duration PAUSED_POLL_TIMEOUT = Duration.ofMillis(2);

    private final Consumer<byte[], byte[]> consumer;
    private final Subscription subscription;
    private final PartitionWorkers workers;
    private final OffsetCommitter committer;
    private final RebalanceHandler rebalanceHandler;
    private final MetricsReporter metrics;
    private final Backpressure backpressure;
    private final Duration pollTimeout;
    private final StopSignal stop;
    private final List<AutoCloseable> resources;
    private final Time time;

    PollLoop(Consumer<byte[], byte[]> consumer, Subscription subscription, PartitionWorkers workers,
             OffsetCommitter committer, RebalanceHandler rebalanceHandler, MetricsReporter metrics,
             Backpressure backpressure, Duration pollTimeout, StopSignal stop,
             List<AutoCloseable> resources, Time time) {
        this.consumer = consumer;
        this.subscription = subscription;
        this.workers = workers;
        this.committer = committer;
        this.rebalanceHandler = rebalanceHandler;
        this.metrics = metrics;
        this.backpressure = backpressure;
        this.pollTimeout = pollTimeout;
        this.stop = stop;
        this.resources = resources;
        this.time = time;
    }

    @Override
    public void run() {
        try {
            subscription.subscribe(consumer, rebalanceHandler);
            boolean anyPaused = false;
            while (!stop.requested()) {
                // A paused partition is resumed only between polls: poll briefly so that it resumes
                // as soon as its queue has drained (a full-length poll made the pool idle).
                ConsumerRecords<byte[], byte[]> records = consumer.poll(anyPaused ? PAUSED_POLL_TIMEOUT : pollTimeout);
                workers.dispatch(records);
                anyPaused = backpressure.apply(consumer, workers);
                committer.maybeCommitAsync(workers.completedOffsets());
                metrics.maybeSample(consumer, workers.all());
            }
        } catch (WakeupException e) {
            if (!stop.requested()) {
                stop.fail(e, time.milliseconds());
            }
        } catch (Throwable e) {
            stop.fail(e, time.milliseconds());
        } finally {
            shutDown();
        }
    }

    private void shutDown() {
        try {
            List<TopicPartition> assigned = new ArrayList<>();
            workers.all().forEach(worker -> assigned.add(worker.partition()));
            rebalanceHandler.releaseAndCommit(assigned, untilDeadline());
            consumer.close(CloseOptions.timeout(untilDeadline()));
        } catch (RuntimeException e) {
            log.warn("Error while closing the consumer: {}", e.toString());
        } finally {
            RealtimeConsumer.closeAll(resources);
        }
    }

    private Duration untilDeadline() {
        return Duration.ofMillis(Math.max(0, stop.deadlineMs() - time.milliseconds()));
    }
}
