package io.tributary.broker.log.remote;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import io.tributary.broker.log.AbortedTxn;

/**
 * What the remote part of one partition's log holds, as its storage last committed it: the segment copies, oldest
 * first, each serving the offsets after the one before ({@link RemoteSegment#startOffset} is the previous copy's end,
 * unless retention or a lost local range left a gap); the log start offset of the whole log; where copying goes on
 * ({@code endOffset}, kept when retention has emptied the list); and the leader epoch of its writer, which fences
 * older leaders. Versions are compare-and-set by {@link RemoteStorage#commit}. Immutable.
 *
 * @param version          the storage's version of this state; 0 before the first commit
 * @param leaderEpoch      the leader epoch under which it was written; -1 before the first commit
 * @param logStartOffset   the first readable offset of the whole log when it was written
 * @param endOffset        the offset after the last one ever copied; -1 if nothing was
 * @param abortedAcrossEnd the aborted transactions with records below {@code endOffset} whose ABORT marker lies at
 *                         or beyond it: what a reader of the remote part alone could not know
 */
public record RemoteLogMetadata(long version, int leaderEpoch, long logStartOffset, long endOffset,
                                List<RemoteSegment> segments, List<AbortedTxn> abortedAcrossEnd) {
    /** Nothing copied yet. */
    public static final RemoteLogMetadata EMPTY = new RemoteLogMetadata(0, -1, 0, -1, List.of(), List.of());

    public RemoteLogMetadata {
        segments = List.copyOf(segments);
        abortedAcrossEnd = List.copyOf(abortedAcrossEnd);
        for (int i = 1; i < segments.size(); i++) {
            if (segments.get(i).startOffset() < segments.get(i - 1).endOffset()) {
                throw new IllegalArgumentException("remote segments overlap at " + segments.get(i).startOffset());
            }
        }
        if (!segments.isEmpty() && segments.get(segments.size() - 1).endOffset() > endOffset) {
            throw new IllegalArgumentException("remote end offset " + endOffset + " below the last segment's end");
        }
    }

    /** The first offset the remote part serves (at or above the log start), or {@link #endOffset} if it lists nothing. */
    public long startOffset() {
        return segments.isEmpty() ? endOffset : Math.max(logStartOffset, segments.get(0).startOffset());
    }

    /** The copy serving {@code offset}, else the first one after it (a gap), else empty. */
    public Optional<RemoteSegment> segmentFrom(long offset) {
        for (RemoteSegment segment : segments) {
            if (segment.endOffset() > offset) {
                return Optional.of(segment);
            }
        }
        return Optional.empty();
    }

    /** The copies after {@code segment}, oldest first. */
    public List<RemoteSegment> segmentsAfter(RemoteSegment segment) {
        int at = segments.indexOf(segment);
        return at < 0 ? List.of() : segments.subList(at + 1, segments.size());
    }

    /** The copy listed right before {@code segment}, if it serves the offsets up to {@code segment}'s start (no gap). */
    public Optional<RemoteSegment> segmentRightBefore(RemoteSegment segment) {
        int at = segments.indexOf(segment);
        return at <= 0 || segments.get(at - 1).endOffset() != segment.startOffset()
                ? Optional.empty() : Optional.of(segments.get(at - 1));
    }

    /**
     * The leader epochs of the listed copies up to {@code segment}'s end, as a leader-epoch checkpoint lists them
     * (epoch → its first offset), from the first copy's start: what each copy's listing says of its epochs.
     */
    public NavigableMap<Integer, Long> leaderEpochsUpTo(RemoteSegment segment) {
        NavigableMap<Integer, Long> epochs = new TreeMap<>();
        for (RemoteSegment copy : segments) {
            if (copy.startOffset() >= segment.endOffset()) {
                break;
            }
            copy.leaderEpochs().forEach((epoch, start) -> {
                if (epochs.isEmpty() || epoch > epochs.lastKey()) {
                    epochs.put(epoch, start);
                }
            });
        }
        return epochs;
    }

    /** The bytes of every listed copy. */
    public long sizeInBytes() {
        return segments.stream().mapToLong(RemoteSegment::sizeInBytes).sum();
    }

    /** This state with {@code segment} listed last, written under {@code epoch}. */
    public RemoteLogMetadata withSegment(RemoteSegment segment, int epoch, long logStart, List<AbortedTxn> abortedAcross) {
        List<RemoteSegment> grown = new ArrayList<>(segments);
        grown.add(segment);
        return new RemoteLogMetadata(version, epoch, logStart, segment.endOffset(), grown, abortedAcross);
    }

    /** This state without its first {@code count} copies, written under {@code epoch}. */
    public RemoteLogMetadata withoutFirst(int count, int epoch, long logStart) {
        return new RemoteLogMetadata(version, epoch, logStart, endOffset, segments.subList(count, segments.size()),
                abortedAcrossEnd);
    }

    /** This state claimed by a leader of {@code epoch}: once committed, writers of older epochs are fenced. */
    public RemoteLogMetadata claimedBy(int epoch) {
        return new RemoteLogMetadata(version, epoch, logStartOffset, endOffset, segments, abortedAcrossEnd);
    }
}
