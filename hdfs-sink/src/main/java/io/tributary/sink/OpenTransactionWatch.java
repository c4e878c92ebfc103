package io.tributary.sink;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which partitions the sink is held at by an open transaction. Reading {@code read_committed}, a partition's position
 * stops at its last stable offset, the first offset of its oldest open transaction, while its log may go on; a
 * transaction no one ends (a producer that died without its coordinator aborting it yet, a hanging one) holds it
 * there for good. At each {@link #check} the brokers are asked for the log end (ListOffsets, read_uncommitted) of the
 * partitions whose committed records are all read, and, where the log goes on past the position, whose transaction
 * begins there (DescribeProducers). The answers come back on the admin client's thread: the poll thread never waits,
 * and a hold shows from the next check on. A hold still there at the next check is logged once, naming the producer.
 * Thread-safe.
 */
final class OpenTransactionWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OpenTransactionWatch.class);

    private final Admin admin;
    private final Time time;
    private final Map<TopicPartition, TransactionHold> holds = new ConcurrentHashMap<>();
    private final Map<TopicPartition, TransactionHold> logged = new ConcurrentHashMap<>();
    private final AtomicBoolean asking = new AtomicBoolean();

    OpenTransactionWatch(Admin admin, Time time) {
        this.admin = admin;
        this.time = time;
    }

    /**
     * Asks again, unless the last question is still unanswered.
     *
     * @param caughtUp each partition whose position is at its last stable offset, with that position
     */
    void check(Map<TopicPartition, Long> caughtUp) {
        holds.entrySet().removeIf(hold -> !Long.valueOf(hold.getValue().offset()).equals(caughtUp.get(hold.getKey())));
        if (caughtUp.isEmpty() || !asking.compareAndSet(false, true)) {
            return;
        }
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        caughtUp.keySet().forEach(tp -> ends.put(tp, OffsetSpec.latest()));
        admin.listOffsets(ends, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().whenComplete((found, error) -> {
            if (error != null) {
                log.debug("cannot read the log ends of {}: {}", caughtUp.keySet(), error.toString());
                asking.set(false);
                return;
            }
            Map<TopicPartition, Long> held = new HashMap<>();
            caughtUp.forEach((tp, position) -> {
                ListOffsetsResultInfo end = found.get(tp);
                if (end != null && end.offset() > position) {
                    held.put(tp, position);
                }
            });
            holds.keySet().removeIf(tp -> !held.containsKey(tp));
            if (held.isEmpty()) {
                asking.set(false);
                return;
            }
            admin.describeProducers(held.keySet()).all().whenComplete((producers, describeError) -> {
                held.forEach((tp, offset) -> record(tp, offset, describeError == null ? producers.get(tp) : null));
                asking.set(false);
            });
        });
    }

    private void record(TopicPartition tp, long offset, PartitionProducerState producers) {
        long producerId = producers == null ? -1 : producers.activeProducers().stream()
            .filter(producer -> producer.currentTransactionStartOffset().isPresent())
            .min(Comparator.comparingLong(producer -> producer.currentTransactionStartOffset().getAsLong()))
            .map(ProducerState::producerId).orElse(-1L);
        TransactionHold before = holds.get(tp);
        if (before == null || before.offset() != offset) {
            holds.put(tp, new TransactionHold(offset, producerId, time.milliseconds()));
            return;
        }
        TransactionHold known = producerId == before.producerId() ? before : new TransactionHold(offset, producerId, before.sinceMs());
        holds.put(tp, known);
        if (!known.equals(logged.get(tp))) {
            logged.put(tp, known);
            log.warn("{} is held at offset {}, its last stable offset, by the open transaction of producer {} (for {} s): "
                    + "nothing after it is written until that transaction commits or aborts (kafka-transactions "
                    + "describe-producers shows it; abort ends one that hangs)", tp, offset, producerId,
                (time.milliseconds() - known.sinceMs()) / 1000);
        }
    }

    /** The hold of {@code tp} as of the last answer, if it is held. */
    Optional<TransactionHold> hold(TopicPartition tp) {
        return Optional.ofNullable(holds.get(tp));
    }

    @Override
    public void close() {
        admin.close();
    }
}
