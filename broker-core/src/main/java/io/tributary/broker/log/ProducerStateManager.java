package io.tributary.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.TransactionCoordinatorFencedException;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The idempotent producers of one partition: per producer id, its epoch and its last few batches
 * (sequence range and offsets). A new batch must continue its producer's sequence; an exact retry
 * of a recent batch is recognised so that it is not appended twice. A producer that has not written
 * for producer.id.expiration.ms (broker time) is forgotten by {@link #removeExpired}, as in Kafka,
 * so the state does not grow with every producer id ever seen.
 *
 * <p>Snapshot file {@code <dir>/<20-digit offset>.snapshot}: the state of every batch below that
 * offset. Layout: int magic ("TPS2"), int entry count, entries of (long producer id, short epoch, int
 * first sequence, int last sequence, long first offset, long last offset, long the producer's last
 * write time), then (since "TPS3") an int count of open transactions and for each (long producer id, long first
 * offset), then (since "TPS4") an int count of coordinator epochs and for each (long producer id, int the coordinator
 * epoch of its last marker), then a CRC-32C of all prior bytes. "TPS1" snapshots, without the write time, "TPS2"
 * ones, without open transactions, and "TPS3" ones, without coordinator epochs, are still read (TPS1's producers count
 * as written at load); so is Apache Kafka's format ({@link KafkaProducerSnapshot}), which a follower restarting at the
 * leader's local log start takes from the remote segment below it ({@link #kafkaFormatOf} writes it for the copies).
 * A producer with several cached batches has one entry per batch, oldest first. Loading takes
 * the newest valid snapshot not beyond the log end and replays the log from there, so state
 * survives restarts, clean or not.
 *
 * <p>Snapshots are taken when a segment rolls, named by the new segment's base offset as in Apache
 * Kafka, so a restart replays at most the active segment; the owner may take more (at the log end).
 * The newest {@value #SNAPSHOTS_KEPT} are kept (an unreadable newest one costs a longer replay, not
 * the state), and on a tiered log those at the ends of segments not yet copied to remote storage, whose copies take
 * them along; snapshots beyond the log end, left by a truncation, are deleted at load.
 *
 * <p>Transactions: a transactional batch opens its producer's transaction ({@link OngoingTransactions}) and a
 * COMMIT or ABORT control batch closes it; {@link #update} reports each closed one, so the caller can index an
 * aborted one. The oldest open transaction holds the last stable offset back ({@link #firstUnstableOffset}).
 * A marker's epoch fences the producer's older epochs here too.
 *
 * <p>Not thread-safe: the caller serialises check, append and update per partition by synchronizing
 * on this manager, as the snapshot after a roll does (it runs on the log's scheduler). State updates
 * come after the append they record, outside the log's append lock, so a snapshot cannot be taken
 * inside the roll: another thread's batch below the new base offset may not be recorded yet. Under
 * this manager's lock every appended batch is, so the roll snapshot is written from there, leaving
 * out the batches at or after the base offset (a restart replays them).
 */
public final class ProducerStateManager {
    private static final Logger log = LoggerFactory.getLogger(ProducerStateManager.class);
    /** As many batches as a producer may have in flight: a retry of any of them is a duplicate. */
    static final int CACHED_BATCHES_PER_PRODUCER = 5;
    static final String SNAPSHOT_SUFFIX = ".snapshot";
    static final int SNAPSHOTS_KEPT = 3;
    private static final int MAGIC_WITHOUT_WRITE_TIMES = 0x54505331; // "TPS1", written before producer ids expired
    private static final int MAGIC_WITHOUT_TRANSACTIONS = 0x54505332; // "TPS2": entries end with the last write time
    private static final int MAGIC_WITHOUT_COORDINATOR_EPOCHS = 0x54505333; // "TPS3": TPS2 plus the open transactions
    private static final int MAGIC = 0x54505334; // "TPS4": TPS3 plus the coordinator epochs
    private static final int ENTRY_BYTES = 8 + 2 + 4 + 4 + 8 + 8 + 8;
    private static final int READ_CHUNK_BYTES = 1024 * 1024;

    private final Map<Long, Deque<BatchMetadata>> producers = new HashMap<>();
    /** Broker time of each producer's last write here, for producer.id.expiration.ms. */
    private final Map<Long, Long> lastWriteMs = new HashMap<>();
    /** Each producer's newest epoch, markers' included (a coordinator's abort bumps it). */
    private final Map<Long, Short> epochs = new HashMap<>();
    private final OngoingTransactions ongoing = new OngoingTransactions();
    /** The coordinator epoch of each producer's newest marker: a marker from an older coordinator is fenced. */
    private final Map<Long, Integer> coordinatorEpochs = new HashMap<>();
    /** Per producer without an open transaction here, the guard of the verification in flight (see {@link VerificationGuard}). */
    private final Map<Long, VerificationGuard> verificationGuards = new HashMap<>();
    private long replayedFrom = -1;

    /**
     * A transaction closed by a marker at {@code lastOffset}; {@code firstOffset} is the marker's own offset when
     * no records of the transaction were seen here. {@code lastStableOffset}: where the LSO stood once it closed.
     */
    public record CompletedTxn(long producerId, long firstOffset, long lastOffset, boolean aborted, long lastStableOffset) {
        AbortedTxn asAborted() {
            return new AbortedTxn(producerId, firstOffset, lastOffset, lastStableOffset);
        }
    }

    /** One appended batch of a producer. */
    public record BatchMetadata(short epoch, int firstSequence, int lastSequence, long firstOffset, long lastOffset) {
    }

    /** Empty state: for a partition that has never seen an idempotent producer. */
    public ProducerStateManager() {
    }

    /**
     * Rebuilds the state of {@code partitionLog} from its newest usable snapshot plus the log after it,
     * and snapshots it whenever the log rolls a segment from now on. Producers replayed from the log count
     * as having written at {@code nowMs}.
     */
    public static ProducerStateManager load(PartitionLog partitionLog, long nowMs) {
        ProducerStateManager state = new ProducerStateManager();
        Path dir = partitionLog.dir();
        long logEnd = partitionLog.logEndOffset();
        deleteSnapshotsAbove(dir, logEnd);
        long logStart = partitionLog.localLogStartOffset();
        state.replayedFrom = Math.max(state.readNewestSnapshot(dir, logStart, logEnd, nowMs), logStart);
        state.replay(partitionLog, state.replayedFrom, logEnd, nowMs);
        state.snapshotOnRollOf(partitionLog);
        return state;
    }

    /**
     * Snapshots this state into the folder of {@code partitionLog} whenever it rolls a segment: the log it was loaded
     * from, or a copy of the same records that takes over from it (a move between log dirs). The folder is looked up at
     * each roll, since the move renames it.
     */
    void snapshotOnRollOf(PartitionLog partitionLog) {
        partitionLog.onRoll(newBaseOffset -> snapshotOnRoll(partitionLog, newBaseOffset));
    }

    /** The offset the last {@link #load} replayed the log from: the offset of the snapshot it used, if any. */
    long replayedFrom() {
        return replayedFrom;
    }

    /**
     * Runs on the log scheduler after the roll. A move between log dirs may rename the folder while the snapshot is
     * being written into it; the snapshot is then written again where the folder is now.
     */
    private synchronized void snapshotOnRoll(PartitionLog partitionLog, long newBaseOffset) {
        Path dir = partitionLog.dir();
        try {
            writeSnapshot(dir, newBaseOffset, partitionLog::producerSnapshotNeeded);
        } catch (IOException | RuntimeException e) {
            if (!partitionLog.dir().equals(dir)) {
                snapshotOnRoll(partitionLog, newBaseOffset);
                return;
            }
            log.warn("could not snapshot producer state in {} at offset {}: {}", dir, newBaseOffset, e.getMessage());
        }
    }

    /** A truncation after an unclean stop or by a new leader leaves snapshots of a history that is gone. */
    private static void deleteSnapshotsAbove(Path dir, long logEnd) {
        for (Path snapshot : snapshots(dir)) {
            if (snapshotOffset(snapshot) > logEnd) {
                try {
                    Files.deleteIfExists(snapshot);
                } catch (IOException e) {
                    log.warn("cannot delete the stale producer snapshot {}: {}", snapshot, e.getMessage());
                }
            }
        }
    }

    /** The earlier append of which {@code batch} is an exact retry, if it is one. */
    public Optional<BatchMetadata> duplicateOf(RecordBatch batch) {
        Deque<BatchMetadata> recent = producers.get(batch.producerId());
        if (recent == null) {
            return Optional.empty();
        }
        return recent.stream()
                .filter(b -> b.epoch() == batch.producerEpoch() && b.firstSequence() == batch.baseSequence()
                        && b.lastSequence() == batch.lastSequence())
                .findFirst();
    }

    /**
     * Checks that {@code batch} may be appended next for its producer. A producer this partition
     * has no state for may start at any sequence (its state may have been lost with old segments).
     *
     * @throws InvalidProducerEpochException for an epoch older than the producer's current one
     * @throws OutOfOrderSequenceException   for a gap in the sequence, a new epoch not starting at 0, or an earlier
     *                                       sequence that is not one of the cached batches
     */
    public void checkSequence(RecordBatch batch) {
        checkEpoch(batch);
        if (batch.isControlBatch()) {
            return; // markers carry no sequence
        }
        Deque<BatchMetadata> recent = producers.get(batch.producerId());
        if (recent == null || recent.isEmpty()) {
            return;
        }
        BatchMetadata last = recent.peekLast();
        if (batch.producerEpoch() < last.epoch()) {
            throw new InvalidProducerEpochException("Producer " + batch.producerId() + " has epoch " + batch.producerEpoch()
                    + ", older than the current epoch " + last.epoch());
        }
        if (batch.producerEpoch() > last.epoch()) {
            if (batch.baseSequence() != 0) {
                throw new OutOfOrderSequenceException("Producer " + batch.producerId() + " started epoch " + batch.producerEpoch()
                        + " at sequence " + batch.baseSequence() + "; a new epoch must start at 0");
            }
            return;
        }
        if (inSequence(last.lastSequence(), batch.baseSequence())) {
            return;
        }
        // A sequence at or below the last one that is not a cached batch (duplicateOf) is not provably a retry: it
        // may never have been appended. DUPLICATE_SEQUENCE_NUMBER would make the client count it as written.
        throw new OutOfOrderSequenceException("Producer " + batch.producerId() + " sent sequence " + batch.baseSequence()
                + " after " + last.lastSequence() + " (epoch " + last.epoch() + ")");
    }

    /**
     * Before a transactional append of {@code producerId} at {@code epoch}: {@link VerificationGuard#NOT_NEEDED} if
     * its transaction is open here at that epoch or a newer epoch of it was seen here, else the guard (kept until its
     * transaction begins or a marker ends it) to verify with the coordinator. {@code bumpsEpoch}: the producer speaks
     * transaction version 2, so a transaction of its previous epoch may still be open here, waiting for its marker.
     */
    public VerificationGuard startVerification(long producerId, short epoch, boolean bumpsEpoch) {
        Short newest = epochs.get(producerId);
        if (newest != null && (newest > epoch || newest == epoch && ongoing.isOpen(producerId))) {
            return VerificationGuard.NOT_NEEDED;
        }
        VerificationGuard guard = verificationGuards.get(producerId);
        if (guard == null || !guard.serves(epoch, bumpsEpoch)) {
            guard = new VerificationGuard(epoch, bumpsEpoch);
            verificationGuards.put(producerId, guard);
        }
        return guard;
    }

    /**
     * Checks that a transactional {@code batch} that would open its producer's transaction here was verified under
     * {@code guard}, and that no marker ended that transaction since.
     *
     * @throws InvalidTxnStateException if not: the partition is not (or no longer) in the producer's transaction
     */
    public void checkVerified(RecordBatch batch, VerificationGuard guard) {
        if (batch.isTransactional() && !openAt(batch.producerId(), batch.producerEpoch())
                && verificationGuards.get(batch.producerId()) != guard) {
            throw new InvalidTxnStateException("The transaction of producer " + batch.producerId()
                    + " does not hold this partition, or ended since the coordinator confirmed it did");
        }
    }

    /** Whether {@code producerId} has a transaction open here at {@code epoch}. */
    private boolean openAt(long producerId, short epoch) {
        Short newest = epochs.get(producerId);
        return ongoing.isOpen(producerId) && newest != null && newest == epoch;
    }

    /**
     * Checks only that {@code batch} is not from an epoch older than its producer's newest: a coordinator's batch.
     *
     * @throws InvalidProducerEpochException if it is
     */
    public void checkEpoch(RecordBatch batch) {
        Short newest = epochs.get(batch.producerId());
        if (newest != null && batch.producerEpoch() < newest) {
            throw new InvalidProducerEpochException("Producer " + batch.producerId() + " has epoch " + batch.producerEpoch()
                    + ", older than the current epoch " + newest);
        }
        Integer coordinatorEpoch = batch.isControlBatch() ? coordinatorEpochs.get(batch.producerId()) : null;
        if (coordinatorEpoch != null && marker(batch).coordinatorEpoch() < coordinatorEpoch) {
            throw new TransactionCoordinatorFencedException("A marker of producer " + batch.producerId() + " from coordinator epoch "
                    + marker(batch).coordinatorEpoch() + ", older than " + coordinatorEpoch + " of its last marker");
        }
    }

    private static boolean inSequence(int lastSequence, int nextSequence) {
        return nextSequence == lastSequence + 1 || (nextSequence == 0 && lastSequence == Integer.MAX_VALUE);
    }

    /**
     * Records an appended batch of a producer at the offsets it was given, written at {@code nowMs}.
     *
     * @return the transaction a control batch closed, else null
     */
    public CompletedTxn update(RecordBatch batch, long firstOffset, long lastOffset, long nowMs) {
        long producerId = batch.producerId();
        epochs.merge(producerId, batch.producerEpoch(), (a, b) -> a >= b ? a : b);
        if (batch.isControlBatch()) {
            lastWriteMs.merge(producerId, nowMs, Math::max);
            // A control batch the cleaner emptied kept only its producer's epoch: its transaction is gone from the log.
            return batch.iterator().hasNext() ? complete(batch, firstOffset) : null;
        }
        record(producerId, new BatchMetadata(batch.producerEpoch(), batch.baseSequence(), batch.lastSequence(), firstOffset, lastOffset),
                nowMs);
        if (batch.isTransactional()) {
            ongoing.begin(producerId, firstOffset);
            verificationGuards.remove(producerId);
        }
        return null;
    }

    private CompletedTxn complete(RecordBatch marker, long markerOffset) {
        VerificationGuard guard = verificationGuards.get(marker.producerId());
        if (guard != null && guard.endedBy(marker.producerEpoch())) {
            verificationGuards.remove(marker.producerId()); // a verification before the marker no longer holds
        }
        EndTransactionMarker end = marker(marker);
        coordinatorEpochs.merge(marker.producerId(), end.coordinatorEpoch(), Math::max);
        boolean aborted = end.controlType() == ControlRecordType.ABORT;
        long first = ongoing.end(marker.producerId());
        long unstable = ongoing.firstUnstableOffset();
        return new CompletedTxn(marker.producerId(), first < 0 ? markerOffset : first, markerOffset, aborted,
                unstable < 0 ? markerOffset + 1 : unstable);
    }

    /** COMMIT or ABORT: the type of a control batch's (only) record. */
    public static ControlRecordType markerType(RecordBatch marker) {
        return marker(marker).controlType();
    }

    private static EndTransactionMarker marker(RecordBatch controlBatch) {
        java.util.Iterator<Record> records = controlBatch.iterator();
        if (!records.hasNext()) {
            throw new InvalidRecordException("A control batch without a record at offset " + controlBatch.baseOffset());
        }
        return EndTransactionMarker.deserialize(records.next());
    }

    /**
     * A producer as DescribeProducers shows it: its newest epoch, its last sequence (-1 if it wrote only through a
     * coordinator), its last write here (broker time) and its open transaction's first offset (-1 if none).
     */
    public record ProducerView(long producerId, short epoch, int lastSequence, long lastWriteMs, int coordinatorEpoch,
                               long currentTxnStartOffset) {
    }

    /** Every producer this partition remembers. */
    public List<ProducerView> activeProducers() {
        Map<Long, Long> open = ongoing.all();
        List<ProducerView> views = new ArrayList<>();
        lastWriteMs.forEach((producerId, writeMs) -> {
            Deque<BatchMetadata> recent = producers.get(producerId);
            int lastSequence = recent == null || recent.isEmpty() ? -1 : recent.peekLast().lastSequence();
            views.add(new ProducerView(producerId, epochs.getOrDefault(producerId, (short) -1), lastSequence, writeMs,
                    coordinatorEpochs.getOrDefault(producerId, -1), open.getOrDefault(producerId, -1L)));
        });
        return views;
    }

    /**
     * What the cleaner must keep of a producer so that replaying the cleaned log restores its state: the batch
     * holding {@code lastDataOffset} (its last sequence), or, when that is -1 because a marker of a newer epoch came
     * after its last data, the marker of {@code epoch}.
     */
    public record LastRecord(long lastDataOffset, short epoch) {
    }

    /** The {@link LastRecord} of every producer this partition remembers. */
    public Map<Long, LastRecord> lastRecords() {
        Map<Long, LastRecord> last = new HashMap<>();
        lastWriteMs.keySet().forEach(producerId -> {
            short epoch = epochs.getOrDefault(producerId, (short) -1);
            Deque<BatchMetadata> recent = producers.get(producerId);
            boolean dataOfThisEpoch = recent != null && !recent.isEmpty() && recent.peekLast().epoch() == epoch;
            last.put(producerId, new LastRecord(dataOfThisEpoch ? recent.peekLast().lastOffset() : -1, epoch));
        });
        return last;
    }

    /** The first offset of the oldest open transaction, or -1 if none is open. */
    public long firstUnstableOffset() {
        return ongoing.firstUnstableOffset();
    }

    /** The open transactions by producer id, with each one's first offset. */
    public Map<Long, Long> openTransactions() {
        return ongoing.all();
    }

    /**
     * Forgets the producers that have not written for {@code expirationMs} (producer.id.expiration.ms): a
     * producer that comes back is then unknown, and may go on at any sequence.
     *
     * @return how many were forgotten
     */
    public int removeExpired(long nowMs, long expirationMs) {
        int before = producers.size();
        lastWriteMs.entrySet().removeIf(entry -> {
            if (nowMs - entry.getValue() >= expirationMs && !ongoing.isOpen(entry.getKey())) {
                producers.remove(entry.getKey());
                epochs.remove(entry.getKey());
                coordinatorEpochs.remove(entry.getKey());
                return true;
            }
            return false;
        });
        return before - producers.size();
    }

    private void record(long producerId, BatchMetadata batch, long writeMs) {
        lastWriteMs.merge(producerId, writeMs, Math::max);
        Deque<BatchMetadata> recent = producers.computeIfAbsent(producerId, id -> new ArrayDeque<>());
        if (!recent.isEmpty() && recent.peekLast().epoch() != batch.epoch()) {
            recent.clear(); // a new epoch restarts the sequence: older batches can no longer be retried
        }
        recent.addLast(batch);
        while (recent.size() > CACHED_BATCHES_PER_PRODUCER) {
            recent.removeFirst();
        }
    }

    public int producerCount() {
        return producers.size();
    }

    /** {@link #writeSnapshot(Path, long, LongPredicate)} for {@code partitionLog}, with what its remote tier needs kept. */
    public void writeSnapshot(PartitionLog partitionLog, long offset) throws IOException {
        writeSnapshot(partitionLog.dir(), offset, partitionLog::producerSnapshotNeeded);
    }

    /**
     * Writes the state of the batches below {@code offset} (atomically) and removes all but the newest
     * {@value #SNAPSHOTS_KEPT} snapshots and those at the offsets {@code keep} names. Batches at or after
     * {@code offset} are left out: loading replays them from the log.
     */
    void writeSnapshot(Path dir, long offset, LongPredicate keep) throws IOException {
        writeSnapshot(dir, offset, keep, ongoing.beganBelow(offset));
    }

    /**
     * Writes into the folder of {@code copy}, a copy of this state's log that starts empty at {@code offset} (a move
     * between log dirs), the state of the batches below {@code offset}, as {@link #writeSnapshot(PartitionLog, long)}
     * does, with the transactions open at {@code offset} that were aborted since ({@code abortedAcross}: the log's aborted
     * transactions that began below it and ended at or after it). The copy then indexes each of them from its first
     * offset when it appends its marker, as the log did (on a tiered log that index goes to remote storage, and the
     * readers of the records below {@code offset} need it). Those committed since need no such care: their records are
     * read either way.
     */
    void writeSnapshotOfCopy(PartitionLog copy, long offset, List<AbortedTxn> abortedAcross) throws IOException {
        Map<Long, Long> open = new HashMap<>(ongoing.beganBelow(offset));
        abortedAcross.stream().filter(txn -> txn.firstOffset() < offset && txn.lastOffset() >= offset)
                .forEach(txn -> open.putIfAbsent(txn.producerId(), txn.firstOffset()));
        writeSnapshot(copy.dir(), offset, copy::producerSnapshotNeeded, open);
    }

    /** {@link #writeSnapshot(Path, long, LongPredicate)} with {@code open}: the open transactions to write, by producer id. */
    private void writeSnapshot(Path dir, long offset, LongPredicate keep, Map<Long, Long> open) throws IOException {
        List<Map.Entry<Long, BatchMetadata>> entries = new ArrayList<>();
        producers.forEach((id, batches) -> batches.stream().filter(batch -> batch.lastOffset() < offset)
                .forEach(batch -> entries.add(Map.entry(id, batch))));
        ByteBuffer buffer = ByteBuffer.allocate(8 + entries.size() * ENTRY_BYTES + 4 + open.size() * 16
                + 4 + coordinatorEpochs.size() * 12 + 4);
        buffer.putInt(MAGIC).putInt(entries.size());
        for (Map.Entry<Long, BatchMetadata> entry : entries) {
            BatchMetadata b = entry.getValue();
            buffer.putLong(entry.getKey()).putShort(b.epoch()).putInt(b.firstSequence()).putInt(b.lastSequence())
                    .putLong(b.firstOffset()).putLong(b.lastOffset()).putLong(lastWriteMs.get(entry.getKey()));
        }
        buffer.putInt(open.size());
        open.forEach((producerId, first) -> buffer.putLong(producerId).putLong(first));
        buffer.putInt(coordinatorEpochs.size());
        coordinatorEpochs.forEach((producerId, epoch) -> buffer.putLong(producerId).putInt(epoch));
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), 0, buffer.position());
        buffer.putInt((int) crc.getValue());
        writeSnapshotFile(dir, offset, buffer.array());
        List<Path> newestFirst = snapshots(dir);
        for (Path older : newestFirst.subList(Math.min(SNAPSHOTS_KEPT, newestFirst.size()), newestFirst.size())) {
            if (!keep.test(snapshotOffset(older))) {
                Files.deleteIfExists(older);
            }
        }
    }

    /**
     * Writes {@code bytes}, a snapshot in any format {@link #load} reads, as the snapshot at {@code offset} (atomically):
     * for a log that restarts there with the state of the remote segment below, in Kafka's format.
     */
    static void writeSnapshotFile(Path dir, long offset, byte[] bytes) throws IOException {
        Path target = snapshotFile(dir, offset);
        Path temp = dir.resolve(target.getFileName() + ".tmp");
        Files.write(temp, bytes);
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The snapshot file of the state below {@code offset}: {@code <20-digit offset>.snapshot}, as Kafka names it. */
    static Path snapshotFile(Path dir, long offset) {
        return dir.resolve(String.format("%020d", offset) + SNAPSHOT_SUFFIX);
    }

    /** @return the offset the loaded snapshot covers, or 0 if there was none usable */
    private long readNewestSnapshot(Path dir, long logStart, long logEnd, long nowMs) {
        for (Path snapshot : snapshots(dir)) {
            long offset = snapshotOffset(snapshot);
            if (offset > logEnd) {
                continue; // the log was truncated below it after an unclean stop
            }
            if (offset < logStart) {
                // DeleteRecords moved the start past it: the batches between it and the start, which the
                // replay would need, are gone. Starting empty is safe: an unknown producer may go on at any sequence.
                break;
            }
            try {
                parse(Files.readAllBytes(snapshot), nowMs);
                return offset;
            } catch (IOException | RuntimeException e) {
                log.warn("ignoring unreadable producer snapshot {}: {}", snapshot, e.getMessage());
                producers.clear();
                lastWriteMs.clear();
                epochs.clear();
                coordinatorEpochs.clear();
                ongoing.clear();
            }
        }
        return 0;
    }

    /** Reads a snapshot; one written before write times were kept counts its producers as written at {@code nowMs}. */
    private void parse(byte[] bytes, long nowMs) {
        if (KafkaProducerSnapshot.isKafkaFormat(bytes)) {
            KafkaProducerSnapshot.decode(bytes).forEach(this::restore);
            return;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        int magic = buffer.getInt();
        boolean known = magic == MAGIC || magic == MAGIC_WITHOUT_COORDINATOR_EPOCHS || magic == MAGIC_WITHOUT_TRANSACTIONS
                || magic == MAGIC_WITHOUT_WRITE_TIMES;
        if (!known || buffer.getInt(bytes.length - 4) != (int) crc.getValue()) {
            throw new IllegalStateException("bad magic or checksum");
        }
        int count = buffer.getInt();
        for (int i = 0; i < count; i++) {
            long producerId = buffer.getLong();
            BatchMetadata batch = new BatchMetadata(buffer.getShort(), buffer.getInt(), buffer.getInt(), buffer.getLong(), buffer.getLong());
            record(producerId, batch, magic != MAGIC_WITHOUT_WRITE_TIMES ? buffer.getLong() : nowMs);
            epochs.merge(producerId, batch.epoch(), (a, b) -> a >= b ? a : b);
        }
        if (magic == MAGIC || magic == MAGIC_WITHOUT_COORDINATOR_EPOCHS) {
            int open = buffer.getInt();
            for (int i = 0; i < open; i++) {
                ongoing.begin(buffer.getLong(), buffer.getLong());
            }
        }
        if (magic == MAGIC) {
            int coordinators = buffer.getInt();
            for (int i = 0; i < coordinators; i++) {
                coordinatorEpochs.put(buffer.getLong(), buffer.getInt());
            }
        }
    }

    /**
     * The snapshot file {@code localSnapshot} (any format this manager reads) in Apache Kafka's format, for a remote
     * segment copy. A TPS1 snapshot's producers count as written at {@code nowMs}.
     */
    public static byte[] kafkaFormatOf(Path localSnapshot, long nowMs) throws IOException {
        ProducerStateManager state = new ProducerStateManager();
        state.parse(Files.readAllBytes(localSnapshot), nowMs);
        return state.toKafkaFormat();
    }

    /**
     * The state Apache Kafka's producer snapshot {@code snapshot} holds (a remote segment copy's), to check it or to
     * replay the batches after it ({@link #update}) and write it again ({@link #toKafkaFormat}).
     *
     * @throws IllegalStateException if {@code snapshot} is not a whole snapshot of Kafka's version 1 with a matching
     *                               checksum
     */
    public static ProducerStateManager fromKafkaFormat(byte[] snapshot) {
        ProducerStateManager state = new ProducerStateManager();
        KafkaProducerSnapshot.decode(snapshot).forEach(state::restore);
        return state;
    }

    /** This state as Apache Kafka's producer snapshot (each producer's last batch, see {@link #kafkaEntries}). */
    public byte[] toKafkaFormat() {
        return KafkaProducerSnapshot.encode(kafkaEntries());
    }

    /**
     * Every producer as Kafka's snapshot keeps it: only its last batch, and none if that is of an epoch older than its
     * newest (a marker bumped it, so its next batch starts at sequence 0). The timestamp is its last write here (broker
     * time, what producer.id.expiration.ms counts from; Kafka keeps its last batch's largest record timestamp).
     */
    private List<KafkaProducerSnapshot.Entry> kafkaEntries() {
        Map<Long, Long> open = ongoing.all();
        List<KafkaProducerSnapshot.Entry> entries = new ArrayList<>();
        lastWriteMs.forEach((producerId, writeMs) -> {
            short epoch = epochs.getOrDefault(producerId, (short) -1);
            Deque<BatchMetadata> recent = producers.get(producerId);
            BatchMetadata last = recent == null || recent.isEmpty() || recent.peekLast().epoch() != epoch ? null : recent.peekLast();
            entries.add(new KafkaProducerSnapshot.Entry(producerId, epoch,
                    last == null ? RecordBatch.NO_SEQUENCE : last.lastSequence(), last == null ? -1 : last.lastOffset(),
                    last == null ? 0 : (int) (last.lastOffset() - last.firstOffset()), writeMs,
                    coordinatorEpochs.getOrDefault(producerId, -1), open.getOrDefault(producerId, -1L)));
        });
        return entries;
    }

    /** Takes a producer from Kafka's snapshot: its last batch is the only one a retry is recognised as a duplicate of. */
    private void restore(KafkaProducerSnapshot.Entry entry) {
        long producerId = entry.producerId();
        epochs.merge(producerId, entry.epoch(), (a, b) -> a >= b ? a : b);
        lastWriteMs.merge(producerId, entry.timestamp(), Math::max);
        if (entry.lastSequence() != RecordBatch.NO_SEQUENCE) {
            int firstSequence = entry.lastSequence() - entry.offsetDelta();
            if (firstSequence < 0) {
                firstSequence = firstSequence + Integer.MAX_VALUE + 1; // the batch wrapped around past Integer.MAX_VALUE
            }
            record(producerId, new BatchMetadata(entry.epoch(), firstSequence, entry.lastSequence(),
                    entry.lastOffset() - entry.offsetDelta(), entry.lastOffset()), entry.timestamp());
        }
        if (entry.coordinatorEpoch() >= 0) {
            coordinatorEpochs.put(producerId, entry.coordinatorEpoch());
        }
        if (entry.currentTxnFirstOffset() >= 0) {
            ongoing.begin(producerId, entry.currentTxnFirstOffset());
        }
    }

    private void replay(PartitionLog partitionLog, long from, long to, long nowMs) {
        long offset = from;
        while (offset < to) {
            FetchDataInfo chunk = partitionLog.read(offset, READ_CHUNK_BYTES, to, true);
            long before = offset;
            for (RecordBatch batch : chunk.records().batches()) {
                if (batch.lastOffset() >= offset) {
                    if (batch.producerId() != RecordBatch.NO_PRODUCER_ID) {
                        CompletedTxn completed = update(batch, batch.baseOffset(), batch.lastOffset(), nowMs);
                        if (completed != null && completed.aborted()) {
                            partitionLog.indexAbortedTxn(completed.asAborted()); // lost if the crash came first
                        }
                    }
                    offset = batch.nextOffset();
                }
            }
            if (offset == before) {
                break;
            }
        }
    }

    /** Snapshot files, newest first. */
    private static List<Path> snapshots(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(SNAPSHOT_SUFFIX))
                    .sorted(Comparator.comparingLong(ProducerStateManager::snapshotOffset).reversed())
                    .toList();
        } catch (IOException e) {
            log.warn("cannot list producer snapshots in {}: {}", dir, e.getMessage());
            return List.of();
        }
    }

    private static long snapshotOffset(Path snapshot) {
        String name = snapshot.getFileName().toString();
        try {
            return Long.parseLong(name.substring(0, name.length() - SNAPSHOT_SUFFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
