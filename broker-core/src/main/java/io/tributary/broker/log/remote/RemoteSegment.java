package io.tributary.broker.log.remote;

import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One segment copy that the remote part of a log lists: the files of a local segment of offsets
 * {@code [baseOffset, endOffset)}, of which it serves {@code [startOffset, endOffset)}. The start is above the base
 * when the copy overlaps the one before it: a new leader whose segments end elsewhere than its predecessor's copies
 * its segment holding the remote end whole, and serves it from there.
 *
 * @param location      where the storage keeps the copy's files, as it named it
 * @param maxTimestamp  the largest record timestamp in the copy (-1 if none has one)
 * @param leaderEpochs  the leader epochs of its offsets: epoch → first offset of that epoch in the copy
 * @param txnIndex      whether the copy has a {@code .txnindex} (it indexes aborted transactions)
 * @param producerSnapshot whether the copy has the producer snapshot taken at its end
 */
public record RemoteSegment(long baseOffset, long startOffset, long endOffset, long sizeInBytes, long maxTimestamp,
                            NavigableMap<Integer, Long> leaderEpochs, String location, boolean txnIndex,
                            boolean producerSnapshot) {
    public RemoteSegment {
        if (baseOffset < 0 || startOffset < baseOffset || endOffset <= startOffset) {
            throw new IllegalArgumentException("bad remote segment offsets: base " + baseOffset + ", start " + startOffset
                    + ", end " + endOffset);
        }
        if (location.isEmpty() || location.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("bad remote segment location '" + location + "'");
        }
        leaderEpochs = Collections.unmodifiableNavigableMap(new TreeMap<>(leaderEpochs));
    }
}
