package io.tributary.broker.replica;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import io.tributary.broker.log.PartitionLog;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The moves of this broker's replicas between its log dirs in progress (AlterReplicaLogDirs, KIP-113), and the thread
 * that carries them out, as Kafka's ReplicaAlterLogDirsThread does: round after round it copies up to {@code maxBytes}
 * of each moving replica's log onto its future log ({@link Partition#copyToFuture}), at most {@code
 * replica.alter.log.dirs.io.max.bytes.per.second} over all of them, and once a round has caught a future log up it
 * syncs it and completes the move under the replica's lock ({@link Partition#completeMove}), which copies what was
 * appended since and swaps the logs. Thread-safe.
 */
final class LogDirMoves implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LogDirMoves.class);
    /** How long the thread waits when no round copied anything (all caught up, or over the throttle). */
    private static final long IDLE_MS = 100;

    private final Set<Partition> moving = ConcurrentHashMap.newKeySet();
    private final int maxBytes;
    private final ReplicationThrottle throttle;
    private final Consumer<TopicPartition> replaceCurrentWithFuture;
    private final Object wakeUp = new Object();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param maxBytes                 most bytes one round copies of one replica ({@code replica.fetch.max.bytes})
     * @param throttle                 {@code replica.alter.log.dirs.io.max.bytes.per.second}
     * @param replaceCurrentWithFuture swaps a moving replica's logs on disk (the log manager's part of the move)
     */
    LogDirMoves(int maxBytes, ReplicationThrottle throttle, Consumer<TopicPartition> replaceCurrentWithFuture) {
        this.maxBytes = maxBytes;
        this.throttle = throttle;
        this.replaceCurrentWithFuture = replaceCurrentWithFuture;
        this.thread = ReplicaManager.daemon("tributary-alter-log-dirs").newThread(this::run);
        thread.start();
    }

    /** Carries out the move {@code partition} has started ({@link Partition#startMove}). */
    void add(Partition partition) {
        moving.add(partition);
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
    }

    /** Stops carrying out {@code partition}'s move (it is cancelled, or the replica is gone). */
    void remove(Partition partition) {
        moving.remove(partition);
    }

    private void run() {
        while (running) {
            boolean copied = false;
            for (Partition partition : moving) {
                if (!running || throttle.exceeded()) {
                    break;
                }
                try {
                    copied |= moveOnce(partition);
                } catch (RuntimeException e) {
                    log.warn("{}: moving to another log dir failed, will retry: {}", partition.topicPartition(), e.toString());
                }
            }
            if (!copied) {
                idle();
            }
        }
    }

    /** One round for one moving replica. @return whether it copied anything */
    private boolean moveOnce(Partition partition) {
        Partition.FutureCopy round = partition.copyToFuture(maxBytes);
        if (round == Partition.FutureCopy.NO_MOVE) {
            moving.remove(partition);
            return false;
        }
        throttle.record(round.bytes());
        if (round.caughtUp()) {
            // Synced here, the future log leaves little to sync under the replica's lock.
            partition.futureLog().ifPresent(PartitionLog::flush);
            TopicPartition tp = partition.topicPartition();
            if (partition.completeMove(maxBytes, () -> replaceCurrentWithFuture.accept(tp))) {
                moving.remove(partition);
                log.info("{}: moved to {}", tp, partition.log().dir().getParent());
            }
        }
        return round.bytes() > 0;
    }

    private void idle() {
        synchronized (wakeUp) {
            try {
                if (running) {
                    wakeUp.wait(IDLE_MS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
