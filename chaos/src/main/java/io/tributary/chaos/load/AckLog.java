package io.tributary.chaos.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the producers sent and what the brokers acknowledged, from every load at once. A payload is
 * {@code <source>-<sequence>} and names one record for the whole run. Thread-safe.
 */
public final class AckLog {
    private final Set<String> sent = ConcurrentHashMap.newKeySet();
    private final Queue<Ack> acks = new ConcurrentLinkedQueue<>();
    private final Queue<ClientError> errors = new ConcurrentLinkedQueue<>();
    private final AtomicLongArray latestAckNanos;
    private final Set<RecoveryClock> clocks = ConcurrentHashMap.newKeySet();

    public AckLog(int partitions) {
        latestAckNanos = new AtomicLongArray(partitions);
    }

    /** Called before a record goes out, so anything in the log is either sent or a fabrication. */
    public void sent(String payload) {
        sent.add(payload);
    }

    public void acknowledged(Ack ack) {
        acks.add(ack);
        latestAckNanos.accumulateAndGet(ack.partition(), ack.ackNanos(), Math::max);
        clocks.forEach(clock -> clock.acknowledged(ack.partition(), ack.ackNanos()));
    }

    public void failed(ClientError error) {
        errors.add(error);
    }

    public boolean wasSent(String payload) {
        return sent.contains(payload);
    }

    public List<Ack> acks() {
        return new ArrayList<>(acks);
    }

    public int ackCount() {
        return acks.size();
    }

    public List<ClientError> errors() {
        return new ArrayList<>(errors);
    }

    /**
     * A clock that starts now and times each partition's first acknowledgement from now on (to
     * measure how soon the cluster served every partition again after a fault ended); close it when done.
     */
    public RecoveryClock startRecoveryClock() {
        RecoveryClock clock = new RecoveryClock(this, latestAckNanos.length());
        clocks.add(clock);
        return clock;
    }

    void stop(RecoveryClock clock) {
        clocks.remove(clock);
    }

    /**
     * Waits until every partition has had an acknowledgement within the last {@code recent}, at a
     * moment between {@code notBeforeNanos} and {@code deadlineNanos}: the partitions are being
     * served, not merely were once after some event. @return whether that moment came
     */
    public boolean awaitEveryPartitionServedRecently(Duration recent, long notBeforeNanos, long deadlineNanos)
            throws InterruptedException {
        while (true) {
            long now = System.nanoTime();
            if (now >= notBeforeNanos) {
                boolean all = true;
                for (int p = 0; p < latestAckNanos.length(); p++) {
                    all &= latestAckNanos.get(p) >= now - recent.toNanos();
                }
                if (all) {
                    return true;
                }
            }
            if (now > deadlineNanos) {
                return false;
            }
            Thread.sleep(20);
        }
    }

    /** Waits until {@code count} more acknowledgements arrived, or the timeout passed. @return whether they did */
    public boolean awaitMoreAcks(int count, Duration timeout) throws InterruptedException {
        long target = ackCount() + (long) count;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ackCount() < target) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }
}
