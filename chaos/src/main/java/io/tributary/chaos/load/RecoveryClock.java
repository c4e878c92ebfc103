package io.tributary.chaos.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How soon each partition was served again after a moment (a fault's end): the time of its first
 * acknowledgement at or after that moment, as the acknowledgement itself was timed, whenever the
 * caller gets round to asking (a fault injector that waits for a restarted broker to listen asks
 * only after that, and the partitions may have been served long before). It also keeps each
 * partition's longest time without an acknowledgement since the start, to show a partition that
 * was served again and then stalled while the cluster healed. Started by
 * {@link AckLog#startRecoveryClock()}, which feeds it every acknowledgement until it is closed (one
 * timed in the instant between the start and the registration may be missed; the next one counts).
 * Thread-safe.
 */
public final class RecoveryClock implements AutoCloseable {
    private static final long NONE = Long.MAX_VALUE;
    private static final long POLL_MILLIS = 20;

    private final AckLog owner;
    private final long startNanos;
    private final AtomicLongArray firstAckNanos;
    private final AtomicLongArray lastAckNanos;
    private final AtomicLongArray longestGapNanos;

    RecoveryClock(AckLog owner, int partitions) {
        this.owner = owner;
        this.startNanos = System.nanoTime();
        this.firstAckNanos = new AtomicLongArray(partitions);
        this.lastAckNanos = new AtomicLongArray(partitions);
        this.longestGapNanos = new AtomicLongArray(partitions);
        for (int p = 0; p < partitions; p++) {
            firstAckNanos.set(p, NONE);
            lastAckNanos.set(p, startNanos);
        }
    }

    /** When the clock started ({@link System#nanoTime()}). */
    public long startNanos() {
        return startNanos;
    }

    void acknowledged(int partition, long ackNanos) {
        if (ackNanos >= startNanos) {
            firstAckNanos.accumulateAndGet(partition, ackNanos, Math::min);
            long previous = lastAckNanos.getAndAccumulate(partition, ackNanos, Math::max);
            longestGapNanos.accumulateAndGet(partition, ackNanos - previous, Math::max);
        }
    }

    /**
     * Waits until every partition has been acknowledged since the start, or until {@code window} after the start.
     *
     * @return per partition, how long after the start its first acknowledgement came; empty for one not within the window
     */
    public List<Optional<Duration>> await(Duration window) throws InterruptedException {
        long deadline = startNanos + window.toNanos();
        while (!allAcknowledged() && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
        }
        List<Optional<Duration>> recoveries = new ArrayList<>();
        for (int p = 0; p < firstAckNanos.length(); p++) {
            long first = firstAckNanos.get(p);
            recoveries.add(first == NONE || first > deadline ? Optional.empty() : Optional.of(Duration.ofNanos(first - startNanos)));
        }
        return recoveries;
    }

    private boolean allAcknowledged() {
        for (int p = 0; p < firstAckNanos.length(); p++) {
            if (firstAckNanos.get(p) == NONE) {
                return false;
            }
        }
        return true;
    }

    /** Per partition, the longest time from the start until now without an acknowledgement. */
    public List<Duration> longestGaps() {
        long now = System.nanoTime();
        List<Duration> gaps = new ArrayList<>();
        for (int p = 0; p < longestGapNanos.length(); p++) {
            gaps.add(Duration.ofNanos(Math.max(longestGapNanos.get(p), now - lastAckNanos.get(p))));
        }
        return gaps;
    }

    /** Stops counting acknowledgements. */
    @Override
    public void close() {
        owner.stop(this);
    }
}
