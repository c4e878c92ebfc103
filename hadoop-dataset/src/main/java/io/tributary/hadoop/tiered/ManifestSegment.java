package io.tributary.hadoop.tiered;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One segment copy a {@link PartitionManifest} lists: the files of a broker's segment of offsets
 * {@code [baseOffset, endOffset)} in the folder {@code location}, serving {@code [startOffset, endOffset)} (the start
 * is above the base where the copy overlaps the one before: a new leader copied its own segment holding the old
 * remote end whole).
 *
 * @param maxTimestamp  the largest record timestamp it holds (-1 if none has one)
 * @param leaderEpochs  the leader epochs of its offsets: epoch → first offset of that epoch in the copy
 * @param txnIndex      whether the copy has a {@code .txnindex}
 * @param producerSnapshot whether the copy has the producer snapshot taken at its end
 */
public record ManifestSegment(long baseOffset, long startOffset, long endOffset, long sizeInBytes, long maxTimestamp,
                              SortedMap<Integer, Long> leaderEpochs, String location, boolean txnIndex,
                              boolean producerSnapshot) {
    public ManifestSegment {
        if (baseOffset < 0 || startOffset < baseOffset || endOffset <= startOffset || sizeInBytes < 0) {
            throw new IllegalArgumentException("bad segment: base " + baseOffset + ", start " + startOffset + ", end "
                + endOffset + ", " + sizeInBytes + " bytes");
        }
        if (location.isEmpty() || location.contains("/") || location.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("bad segment location '" + location + "'");
        }
        leaderEpochs = Collections.unmodifiableSortedMap(new TreeMap<>(leaderEpochs));
    }
}
