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
 * The sink's status: when the {@link StatusReporter} wants one, a snapshot of every partition it writes, with its
 * lag as the consumer knows it (read_committed: behind the last stable offset) and the open transaction it is held
 * at, if one holds it ({@link OpenTransactionWatch}, asked again at each snapshot about the partitions with nothing
 * left to read). The last snapshot is kept for callers. Poll thread, except {@link #last()}.
 */
final class SinkStatus implements AutoCloseable {
    private final StatusReporter reporter;
    private final OpenTransactionWatch transactions;
    private final Time time;
    private volatile List<PartitionStatus> last = List.of();

    SinkStatus(StatusReporter reporter, OpenTransactionWatch transactions, Time time) {
        this.reporter = reporter;
        this.transactions = transactions;
        this.time = time;
    }

    void maybeReport(Collection<PartitionState> partitions, Consumer<?, ?> consumer) {
        long now = time.milliseconds();
        if (!reporter.isDue(now)) {
            return;
        }
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
        transactions.check(caughtUp);
        status.sort(Comparator.comparing((PartitionStatus s) -> s.partition().topic())
            .thenComparingInt(s -> s.partition().partition()));
        last = List.copyOf(status);
        reporter.report(last, now);
    }

    /** The snapshot of the last report. */
    List<PartitionStatus> last() {
        return last;
    }

    @Override
    public void close() {
        transactions.close();
    }
}
