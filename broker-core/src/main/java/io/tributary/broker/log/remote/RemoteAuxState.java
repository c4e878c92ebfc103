package io.tributary.broker.log.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
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
 * @param startOffset      where the replica's log restarts
 * @param producerSnapshot the producer state at {@code startOffset}, in Kafka's format; empty if the copy has none
 * @param leaderEpochs     epoch → start offset of every leader epoch that starts below {@code startOffset}
 */
public record RemoteAuxState(long startOffset, Optional<byte[]> producerSnapshot, NavigableMap<Integer, Long> leaderEpochs) {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteAuxState.class);
    private static final int READ_BYTES = 1 << 20;

    /**
     * The state below {@code leaderLocalStart} from the copy holding the offset before it, as {@code storage} lists it
     * now; empty if no copy holds that offset (nothing is remote there, or retention deleted it).
     */
    public static Optional<RemoteAuxState> below(RemoteStorage storage, TopicPartition tp, long leaderLocalStart)
            throws IOException {
        long last = leaderLocalStart - 1;
        Optional<RemoteSegment> holding = storage.metadata(tp).segmentFrom(last).filter(copy -> copy.startOffset() <= last);
        if (holding.isEmpty()) {
            return Optional.empty();
        }
        RemoteSegment copy = holding.get();
        Optional<byte[]> snapshot = copy.producerSnapshot()
                ? Optional.of(readWhole(storage, tp, copy, RemoteFile.PRODUCER_SNAPSHOT)) : Optional.empty();
        String checkpoint = new String(readWhole(storage, tp, copy, RemoteFile.LEADER_EPOCH_CHECKPOINT), StandardCharsets.UTF_8);
        return Optional.of(new RemoteAuxState(copy.endOffset(), snapshot, leaderEpochs(tp, copy, checkpoint)));
    }

    /** An unreadable checkpoint costs the epochs below, not the restart (retrying would never read it either). */
    private static NavigableMap<Integer, Long> leaderEpochs(TopicPartition tp, RemoteSegment copy, String checkpoint) {
        try {
            return LeaderEpochCheckpoint.decode(checkpoint);
        } catch (IOException unreadable) {
            LOG.warn("{}: the leader-epoch checkpoint of the remote copy {} is unreadable ({}); restarting at {} without "
                    + "the leader epochs below", tp, copy.location(), unreadable.getMessage(), copy.endOffset());
            return new TreeMap<>();
        }
    }

    /** A restart at {@code startOffset} with nothing from remote storage: the producer state and leader epochs start empty. */
    public static RemoteAuxState nothingAt(long startOffset) {
        return new RemoteAuxState(startOffset, Optional.empty(), new TreeMap<>());
    }

    public RemoteAuxState {
        leaderEpochs = new TreeMap<>(leaderEpochs);
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
