package io.tributary.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import io.tributary.broker.coordinator.CoordinatedPartitions;
import io.tributary.broker.coordinator.InternalTopic;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.FakeTime;
import io.tributary.broker.txn.TransactionCoordinator.ProducerIdAndEpoch;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's EndTxn as Kafka decides it at transaction version 2 (KIP-890 part 2): every EndTxn v5 moves the
 * producer to its next epoch (the markers carry it), a retry of an EndTxn already carried out is answered as it was,
 * an abort with nothing open still bumps, a stale epoch is fenced, a coordinator's own abort bumps twice, and a
 * producer id whose epochs run out is replaced at the end of a transaction. Producers of version 0 and 1 keep their
 * epoch. Over a real {@code __transaction_state} log; markers go to a fake remote leader that records them.
 */
@Timeout(60)
class TransactionCoordinatorTest {
    private static final String ID = "payments";
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    @TempDir
    Path dir;
    private final FakeTime time = new FakeTime();
    private final AtomicLong producerIds = new AtomicLong(1000);
    private final List<TxnMarker> markersSent = new CopyOnWriteArrayList<>();
    /** How many state writes to refuse once markers are sent, as a state partition below min.insync.replicas does. */
    private final AtomicInteger refusalsAfterMarkers = new AtomicInteger();
    private final AtomicInteger writesToRefuse = new AtomicInteger();
    private LogManager logs;
    private MarkerSender markers;
    private TransactionStateStore store;
    private TransactionCoordinator coordinator;

    @BeforeEach
    void start() {
        logs = LogManager.open(List.of(dir), LogConfig.defaults(), time);
        PartitionLog log = logs.getOrCreate(new TopicPartition(TransactionStateStore.TOPIC, 0), LogConfig.defaults());
        store = new TransactionStateStore(InternalTopic.over(TransactionStateStore.TOPIC, List.of(log), (tp, records) -> {
            if (writesToRefuse.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return CompletableFuture.completedFuture(Errors.NOT_ENOUGH_REPLICAS);
            }
            log.appendAsLeader(records, 0, AppendOrigin.COORDINATOR);
            return CompletableFuture.completedFuture(Errors.NONE);
        }), time);
        CoordinatedPartitions partitions = new CoordinatedPartitions(store::partitionFor, "transactional id");
        partitions.startLoading(0, 0);
        partitions.finishLoading(0, 0);
        markers = new MarkerSender(1, partition -> OptionalInt.of(2), null, new MarkerSender.RemoteBrokers() {
            @Override
            public Map<TopicPartition, Errors> send(int brokerId, TxnMarker marker, Set<TopicPartition> targets) {
                markersSent.add(marker);
                writesToRefuse.set(refusalsAfterMarkers.get());
                return Map.of(ORDERS, Errors.NONE);
            }

            @Override
            public void close() {
            }
        });
        coordinator = new TransactionCoordinator(new TransactionConfig(1, (short) 1, 1, 1 << 20, 900_000, 1000,
                3_600_000, 1000, 1000), store, partitions, producerIds::incrementAndGet, markers, time);
    }

    @AfterEach
    void stop() {
        markers.close();
        logs.close();
    }

    private ProducerIdAndEpoch init() throws Exception {
        ProducerIdAndEpoch ids = coordinator.initProducerId(ID, 60_000, -1, (short) -1).get();
        assertThat(ids.error()).isEqualTo(Errors.NONE);
        return ids;
    }

    /** What a partition leader does for a producer of version 2 on its first write to {@code ORDERS}. */
    private Errors write(ProducerIdAndEpoch ids) throws Exception {
        return coordinator.addPartitions(ID, ids.producerId(), ids.producerEpoch(), Set.of(ORDERS),
                TransactionRecord.EPOCH_BUMPING_VERSION).get();
    }

    private ProducerIdAndEpoch end(ProducerIdAndEpoch ids, boolean commit) throws Exception {
        return coordinator.endTransaction(ID, ids.producerId(), ids.producerEpoch(), commit, true).get();
    }

    private TransactionRecord awaitComplete() {
        await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.all().get(0).state() == TransactionState.COMPLETE_COMMIT
                || coordinator.all().get(0).state() == TransactionState.COMPLETE_ABORT);
        return coordinator.all().get(0);
    }

    private static ProducerIdAndEpoch ids(long producerId, int epoch) {
        return new ProducerIdAndEpoch(Errors.NONE, producerId, (short) epoch);
    }

    @Test
    void everyEndTxnMovesTheProducerToItsNextEpochAndTheMarkersCarryIt() throws Exception {
        ProducerIdAndEpoch first = init();
        assertThat(write(first)).isEqualTo(Errors.NONE);
        ProducerIdAndEpoch second = end(first, true);
        assertThat(second).isEqualTo(ids(first.producerId(), first.producerEpoch() + 1));
        awaitComplete();
        assertThat(markersSent).containsExactly(new TxnMarker(first.producerId(), second.producerEpoch(), true, 0));

        assertThat(write(second)).isEqualTo(Errors.NONE);
        assertThat(end(second, false)).isEqualTo(ids(first.producerId(), first.producerEpoch() + 2));
        assertThat(awaitComplete().state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(store.load(0).get(ID).producerEpoch()).isEqualTo((short) (first.producerEpoch() + 2));
    }

    @Test
    void aCompletionTheStateLogRefusesIsWrittenAgainWhileThisBrokerCoordinates() throws Exception {
        ProducerIdAndEpoch ids = init();
        write(ids);
        refusalsAfterMarkers.set(3);
        end(ids, true);
        assertThat(awaitComplete().state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(store.load(0).get(ID).state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(markersSent).as("the markers are not sent again").hasSize(1);
    }

    @Test
    void aRetriedEndTxnIsAnsweredAsItWasAndAStaleEpochIsFenced() throws Exception {
        ProducerIdAndEpoch first = init();
        write(first);
        ProducerIdAndEpoch next = end(first, true);
        awaitComplete();
        assertThat(end(first, true)).as("the retry of the commit").isEqualTo(next);
        assertThat(end(first, false).error()).as("an abort at the epoch of the commit").isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(end(ids(first.producerId(), first.producerEpoch() - 1), true).error()).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(end(next, true).error()).as("a commit with nothing open").isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(write(first)).as("a write of the ended transaction's epoch").isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void anAbortWithNothingOpenStillMovesToTheNextEpoch() throws Exception {
        ProducerIdAndEpoch first = init();
        ProducerIdAndEpoch next = end(first, false);
        assertThat(next).isEqualTo(ids(first.producerId(), first.producerEpoch() + 1));
        assertThat(awaitComplete().state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(markersSent).as("no partition, no marker").isEmpty();
        assertThat(write(next)).isEqualTo(Errors.NONE);
    }

    @Test
    void aProducerIdWhoseEpochsRunOutIsReplacedWhenItsTransactionEnds() throws Exception {
        ProducerIdAndEpoch first = init();
        // A producer whose id is at its last usable epoch, as __transaction_state would have it after 32766 transactions.
        TransactionRecord worn = new TransactionRecord(ID, first.producerId(), (short) (Short.MAX_VALUE - 1), 60_000,
                TransactionState.COMPLETE_COMMIT, Set.of(), time.milliseconds(), time.milliseconds());
        assertThat(store.write(worn).get()).isEqualTo(Errors.NONE);
        coordinator.unload(0);
        coordinator.load(0, 0);
        ProducerIdAndEpoch last = ids(first.producerId(), Short.MAX_VALUE - 1);
        assertThat(write(last)).isEqualTo(Errors.NONE);

        ProducerIdAndEpoch rotated = end(last, true);
        assertThat(rotated.producerId()).isNotEqualTo(first.producerId());
        assertThat(rotated.producerEpoch()).isZero();
        TransactionRecord completed = awaitComplete();
        assertThat(completed.producerId()).isEqualTo(rotated.producerId());
        assertThat(completed.previousProducerId()).isEqualTo(first.producerId());
        assertThat(markersSent).containsExactly(new TxnMarker(first.producerId(), Short.MAX_VALUE, true, 0));
        assertThat(end(last, true)).as("the retry after the rotation").isEqualTo(rotated);
        assertThat(write(rotated)).isEqualTo(Errors.NONE);
    }

    @Test
    void theCoordinatorsOwnAbortFencesBothKindsOfProducer() throws Exception {
        ProducerIdAndEpoch first = init();
        write(first);
        time.sleep(61_000);
        coordinator.abortTimedOut();
        TransactionRecord aborted = awaitComplete();
        assertThat(aborted.state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(aborted.producerEpoch()).isEqualTo((short) (first.producerEpoch() + 2));
        assertThat(end(first, false).error()).as("version 2: not a retry of its own abort").isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(coordinator.endTransaction(ID, first.producerId(), first.producerEpoch(), false, false).get().error())
                .as("version 1").isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void producersOfVersionOneKeepTheirEpoch() throws Exception {
        ProducerIdAndEpoch first = init();
        assertThat(coordinator.addPartitions(ID, first.producerId(), first.producerEpoch(), Set.of(ORDERS), (short) 0).get())
                .isEqualTo(Errors.NONE);
        assertThat(coordinator.endTransaction(ID, first.producerId(), first.producerEpoch(), true, false).get())
                .isEqualTo(new ProducerIdAndEpoch(Errors.NONE, -1, (short) -1));
        assertThat(awaitComplete().producerEpoch()).isEqualTo(first.producerEpoch());
        assertThat(markersSent).containsExactly(new TxnMarker(first.producerId(), first.producerEpoch(), true, 0));
    }
}
