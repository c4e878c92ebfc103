package io.tributary.broker.log.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import io.tributary.broker.log.ProducerStateManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a replica restarts whose log ends below the leader's local log start (everything below that start is in remote
 * storage), and what it takes from the remote segment copy just below: KIP-405's auxiliary state of a follower that
 * fetches from the tiered offset. It restarts at the end of the copy holding the offset before the leader's local start
 * (as Kafka's follower does) with the copy's producer snapshot, so that it knows the producers whose last writes are
 * remote (duplicates of their retries, the transactions open there, which it indexes from their first offsets when it
 * appends their ABORT markers) and the leader epochs up to there from the copy's leader-epoch checkpoint.
 *
 * <p>A damaged copy (a file missing, unreadable or failing its checksum) is worked around where that is sound and
 * cheap, beyond what Kafka's follower does: the leader epochs are the same in the metadata's listing of the copies, and
 * an unusable producer snapshot is rebuilt from the snapshot of the copy right before and the copy's own batches (one
 * more segment read). Otherwise {@link #below} fails, naming the file and what is wrong with it, and the follower tries
 * again later: starting without the producer state would answer retries and index aborted transactions wrongly once it
 * leads.
 *
 * @param startOffset      where the replica's log restarts
 * @param producerSnapshot the producer state at {@code startOffset}, in Kafka's format; empty if the copies have none
 * @param leaderEpochs     epoch → start offset of every leader epoch that starts below {@code startOffset}
 */
public record RemoteAuxState(long startOffset, Optional<byte[]> producerSnapshot, NavigableMap<Integer, Long> leaderEpochs) {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteAuxState.class);
    private static final int READ_BYTES = 1 << 20;

    /**
     * The state below {@code leaderLocalStart} from the copy holding the offset before it, as {@code storage} lists it
     * now; empty if no copy holds that offset (nothing is remote there, or retention deleted it).
     *
     * @param nowMs the time producers replayed from a copy's batches count as having written at
     * @throws IOException if the storage fails, or the copy's producer snapshot is unusable and cannot be rebuilt (the
     *                     message names the files and what is wrong)
     */
    public static Optional<RemoteAuxState> below(RemoteStorage storage, TopicPartition tp, long leaderLocalStart, long nowMs)
            throws IOException {
        long last = leaderLocalStart - 1;
        RemoteLogMetadata metadata = storage.metadata(tp);
        Optional<RemoteSegment> holding = metadata.segmentFrom(last).filter(copy -> copy.startOffset() <= last);
        if (holding.isEmpty()) {
            return Optional.empty();
        }
        RemoteSegment copy = holding.get();
        return Optional.of(new RemoteAuxState(copy.endOffset(), producerState(storage, tp, metadata, copy, nowMs),
                leaderEpochs(storage, tp, metadata, copy)));
    }

    /** A restart at {@code startOffset} with nothing from remote storage: the producer state and leader epochs start empty. */
    public static RemoteAuxState nothingAt(long startOffset) {
        return new RemoteAuxState(startOffset, Optional.empty(), new TreeMap<>());
    }

    public RemoteAuxState {
        leaderEpochs = new TreeMap<>(leaderEpochs);
    }

    /** The copy's checkpoint, or the epochs the metadata lists for the copies up to it if the checkpoint is unusable. */
    private static NavigableMap<Integer, Long> leaderEpochs(RemoteStorage storage, TopicPartition tp, RemoteLogMetadata metadata,
                                                            RemoteSegment copy) {
        try {
            return LeaderEpochCheckpoint.decode(new String(readWhole(storage, tp, copy, RemoteFile.LEADER_EPOCH_CHECKPOINT),
                    StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException unusable) { // unreadable (a block failing its checksum, say) or not one
            NavigableMap<Integer, Long> listed = metadata.leaderEpochsUpTo(copy);
            LOG.warn("{}: {} is unusable ({}); taking the leader epochs the remote metadata lists for the copies up to offset "
                    + "{} instead: {}", tp, nameOf(copy, RemoteFile.LEADER_EPOCH_CHECKPOINT), unusable.getMessage(),
                    copy.endOffset(), listed);
            return listed;
        }
    }

    /**
     * The copy's producer snapshot. If it is unusable, or the copy was listed without one while the copy right before
     * has one (its leader had not written it yet: copies did not wait for it before), the snapshot of the copy right
     * before with this copy's batches replayed on top. Empty if neither copy has one (a log that never had idempotent
     * producers).
     */
    private static Optional<byte[]> producerState(RemoteStorage storage, TopicPartition tp, RemoteLogMetadata metadata,
                                                  RemoteSegment copy, long nowMs) throws IOException {
        Optional<RemoteSegment> before = metadata.segmentRightBefore(copy).filter(RemoteSegment::producerSnapshot);
        if (!copy.producerSnapshot()) {
            return before.isEmpty() ? Optional.empty() : Optional.of(rebuilt(storage, tp, copy, before.get(), nowMs,
                    "the remote copy " + copy.location() + " has no producer snapshot"));
        }
        try {
            return Optional.of(checkedProducerSnapshot(storage, tp, copy));
        } catch (IOException unusable) {
            if (before.isEmpty()) {
                throw new IOException(unusable.getMessage() + "; no copy right before it has a producer snapshot to rebuild "
                        + "it from", unusable);
            }
            return Optional.of(rebuilt(storage, tp, copy, before.get(), nowMs, unusable.getMessage()));
        }
    }

    /**
     * The producer state at {@code copy}'s end from the snapshot of {@code before}, the copy right before it, and the
     * batches of {@code copy}, in Kafka's format.
     *
     * @param why what is wrong with {@code copy}'s own snapshot, for the log and the error
     * @throws IOException if that snapshot or those batches are unusable too (the message says why, and {@code why})
     */
    private static byte[] rebuilt(RemoteStorage storage, TopicPartition tp, RemoteSegment copy, RemoteSegment before,
                                  long nowMs, String why) throws IOException {
        try {
            ProducerStateManager state = ProducerStateManager.fromKafkaFormat(checkedProducerSnapshot(storage, tp, before));
            replay(storage, tp, copy, state, nowMs);
            LOG.warn("{}: {}; rebuilt it from {} and the batches of the copy {}", tp, why,
                    nameOf(before, RemoteFile.PRODUCER_SNAPSHOT), copy.location());
            return state.toKafkaFormat();
        } catch (IOException | RuntimeException unusable) {
            throw new IOException(why + "; nor can it be rebuilt from the copy right before it: " + unusable.getMessage(),
                    unusable);
        }
    }

    /**
     * The copy's producer snapshot, checked.
     *
     * @throws IOException naming the file if it cannot be read or is not a whole snapshot of Kafka's format
     */
    private static byte[] checkedProducerSnapshot(RemoteStorage storage, TopicPartition tp, RemoteSegment copy)
            throws IOException {
        String name = nameOf(copy, RemoteFile.PRODUCER_SNAPSHOT);
        byte[] bytes;
        try {
            bytes = readWhole(storage, tp, copy, RemoteFile.PRODUCER_SNAPSHOT);
        } catch (IOException | RuntimeException e) { // a block failing the storage's own checksum, say
            throw new IOException("the producer snapshot " + name + " cannot be read (" + e + ")", e);
        }
        try {
            ProducerStateManager.fromKafkaFormat(bytes);
            return bytes;
        } catch (IllegalStateException e) {
            throw new IOException("the producer snapshot " + name + " is corrupt (" + e.getMessage() + ")", e);
        }
    }

    /** Replays the batches {@code copy} serves into {@code state}, each checked against its CRC first. */
    private static void replay(RemoteStorage storage, TopicPartition tp, RemoteSegment copy, ProducerStateManager state,
                               long nowMs) throws IOException {
        RemoteBatches batches = new RemoteBatches(storage, tp, copy, 0, READ_BYTES);
        for (MutableRecordBatch batch = batches.next(); batch != null && batch.baseOffset() < copy.endOffset();
             batch = batches.next()) {
            if (batch.baseOffset() >= copy.startOffset() && batch.hasProducerId()) {
                RemoteBatches.checkCrc(tp, copy, batch);
                state.update(batch, batch.baseOffset(), batch.lastOffset(), nowMs);
            }
        }
    }

    /** How an operator finds the copy's file: {@code <copy folder>/<file name>}, under the partition's remote folder. */
    private static String nameOf(RemoteSegment copy, RemoteFile file) {
        return copy.location() + "/" + file.fileName(copy);
    }

    private static byte[] readWhole(RemoteStorage storage, TopicPartition tp, RemoteSegment copy, RemoteFile file)
            throws IOException {
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        while (true) {
            ByteBuffer chunk = storage.read(tp, copy, file, whole.size(), READ_BYTES);
            byte[] bytes = new byte[chunk.remaining()];
            chunk.get(bytes);
            whole.write(bytes);
            if (bytes.length < READ_BYTES) {
                return whole.toByteArray();
            }
        }
    }
}
