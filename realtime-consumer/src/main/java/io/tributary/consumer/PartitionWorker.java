package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The records of one assigned partition waiting to be handled, and the offset up to which they
 * are done. At most one drain task per partition is queued on or running in the shared worker
 * pool, which is what keeps a partition's records in order while partitions run in parallel.
 * A drain task handles one chunk and then requeues itself, so a busy partition cannot starve
 * the others.
 *
 * <p>Thread-safe: the poll thread enqueues, revokes and reads offsets; a pool thread drains.
 */
final class PartitionWorker implements WorkProgress {
    private static final Logger log = LoggerFactory.getLogger(PartitionWorker.class);

    private final TopicPartition partition;
    private final RecordProcessor processor;
    private final Executor pool;
    private final int maxChunk;
    private final Consumer<Throwable> failureSink;
    private final Time time;
    private final PartitionMetrics metrics;

    private final Object lock = new Object();
    private final ArrayDeque<ConsumerRecord<byte[], byte[]>> queue = new ArrayDeque<>();
    private boolean drainScheduled;
    private boolean aborted;
    private OffsetAndMetadata completed;
    private long firstEnqueuedOffset = -1;

    PartitionWorker(TopicPartition partition, RecordProcessor processor, Executor pool, int maxChunk,
                    Consumer<Throwable> failureSink, Time time) {
        this.partition = partition;
        this.processor = processor;
        this.pool = pool;
        this.maxChunk = maxChunk;
        this.failureSink = failureSink;
        this.time = time;
        this.metrics = new PartitionMetrics(partition);
    }

    TopicPartition partition() {
        return partition;
    }

    PartitionMetrics metrics() {
        return metrics;
    }

    /** Queues fetched records (in offset order) and makes sure a drain task will run. */
    void enqueue(Collection<ConsumerRecord<byte[], byte[]>> records) {
        synchronized (lock) {
            if (aborted || records.isEmpty()) {
                return;
            }
            if (firstEnqueuedOffset < 0) {
                firstEnqueuedOffset = records.iterator().next().offset();
            }
            queue.addAll(records);
            scheduleDrainIfIdle();
        }
    }

    /** Records queued and not yet started. */
    int queued() {
        synchronized (lock) {
            return queue.size();
        }
    }

    /** The offset to commit: one past the last record done, with its leader epoch; empty if none is done. */
    Optional<OffsetAndMetadata> completedOffset() {
        synchronized (lock) {
            return Optional.ofNullable(completed);
        }
    }

    /** The next offset this consumer still has to finish, or -1 if it has not seen any record yet. */
    long nextOffsetToFinish() {
        synchronized (lock) {
            return completed != null ? completed.offset() : firstEnqueuedOffset;
        }
    }

    /**
     * Stops the partition: drops queued records (they stay uncommitted for the next owner) and
     * cuts retry back-offs short. A handler call in progress runs to its end; see {@link #awaitIdle}.
     */
    void abort() {
        synchronized (lock) {
            aborted = true;
            queue.clear();
            lock.notifyAll();
        }
    }

    /**
     * Waits until no handler call of this partition is in progress or {@code deadlineMs} passes.
     * Returns false if a handler was still running at the deadline.
     */
    boolean awaitIdle(long deadlineMs) throws InterruptedException {
        try {
            time.waitObject(lock, () -> !drainScheduled, deadlineMs);
            return true;
        } catch (org.apache.kafka.common.errors.TimeoutException stillBusy) {
            log.warn("Handler for {} still running at the deadline; releasing the partition anyway", partition);
            return false;
        }
    }

    private void scheduleDrainIfIdle() {
        if (!drainScheduled && !queue.isEmpty()) {
            drainScheduled = true;
            pool.execute(this::drainOneChunk);
        }
    }

    private void drainOneChunk() {
        List<ConsumerRecord<byte[], byte[]>> chunk = new ArrayList<>();
        synchronized (lock) {
            while (!aborted && chunk.size() < maxChunk && !queue.isEmpty()) {
                chunk.add(queue.poll());
            }
        }
        boolean keepGoing = false;
        try {
            keepGoing = !chunk.isEmpty() && processor.process(chunk, this);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable unexpected) {
            failed(unexpected);
        } finally {
            synchronized (lock) {
                drainScheduled = false;
                if (keepGoing && !aborted) {
                    scheduleDrainIfIdle();
                }
                lock.notifyAll();
            }
        }
    }

    @Override
    public void completed(List<ConsumerRecord<byte[], byte[]>> records, long latencyNanos) {
        ConsumerRecord<byte[], byte[]> last = records.get(records.size() - 1);
        synchronized (lock) {
            completed = new OffsetAndMetadata(last.offset() + 1, last.leaderEpoch(), "");
        }
        metrics.recordHandled(records.size(), latencyNanos);
    }

    @Override
    public void failed(Throwable failure) {
        synchronized (lock) {
            aborted = true;
            queue.clear();
        }
        failureSink.accept(failure);
    }

    @Override
    public boolean aborted() {
        synchronized (lock) {
            return aborted;
        }
    }

    @Override
    public boolean awaitAbort(Duration backoff) throws InterruptedException {
        synchronized (lock) {
            try {
                time.waitObject(lock, () -> aborted, time.milliseconds() + backoff.toMillis());
                return true;
            } catch (org.apache.kafka.common.errors.TimeoutException backoffOver) {
                return false;
            }
        }
    }
}
