package io.tributary.sink;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The sink's status: about once a second, and whenever the {@link StatusReporter} wants one, a snapshot of every
 * partition it writes, with its lag as the consumer knows it (read_committed: behind the last stable offset) and the
 * open transaction it is held at, if one holds it ({@link OpenTransactionWatch}, asked again at each report about
 * the partitions with nothing left to read). Each snapshot goes to the {@link SinkMonitor} (the status page, the lag
 * gauge, {@link #last()}). Poll thread, except {@link #last()}.
 */
final class SinkStatus implements AutoCloseable {
    private static final long SNAPSHOT_INTERVAL_MS = 1000;

    private final StatusReporter reporter;
    private final SinkMonitor monitor;
    private final OpenTransactionWatch transactions;
    private final Time time;
    private long nextSnapshotMs;

    SinkStatus(StatusReporter reporter, SinkMonitor monitor, OpenTransactionWatch transactions, Time time) {
        this.reporter = reporter;
        this.monitor = monitor;
        this.transactions = transactions;
        this.time = time;
    }

    void maybeReport(Collection<PartitionState> partitions, Consumer<?, ?> consumer) {
        long now = time.milliseconds();
        boolean reportDue = reporter.isDue(now);
        if (!reportDue && now < nextSnapshotMs) {
            return;
        }
        nextSnapshotMs = now + SNAPSHOT_INTERVAL_MS;
        List<PartitionStatus> status = new ArrayList<>();
        Map<TopicPartition, Long> caughtUp = new HashMap<>();
        for (PartitionState state : partitions) {
            TopicPartition tp = state.partition();
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isPresent() && lag.getAsLong() == 0) {
                caughtUp.put(tp, consumer.position(tp)); // known: the lag is measured from it
            }
            status.add(state.status(lag.orElse(-1), transactions.hold(tp), now));
        }
        status.sort(Comparator.comparing((PartitionStatus s) -> s.partition().topic())
            .thenComparingInt(s -> s.partition().partition()));
        monitor.publish(List.copyOf(status));
        if (reportDue) {
            transactions.check(caughtUp);
            reporter.report(monitor.partitions(), now);
        }
    }

    /** The last snapshot. */
    List<PartitionStatus> last() {
        return monitor.partitions();
    }

    @Override
    public void close() {
        transactions.close();
    }
}
