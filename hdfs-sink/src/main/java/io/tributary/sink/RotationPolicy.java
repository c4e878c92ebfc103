package io.tributary.sink;

/**
 * When the open files of a partition commit: at {@code flushSize} records, when one file reaches
 * {@code fileMaxBytes}, or {@code rotateIntervalMs} after the first uncommitted record arrived,
 * whether or not more records come (the poll loop asks {@link #isDue} after every poll).
 */
public record RotationPolicy(int flushSize, long fileMaxBytes, long rotateIntervalMs) {
    public RotationPolicy {
        if (flushSize < 1 || fileMaxBytes < 1 || rotateIntervalMs < 1) {
            throw new IllegalArgumentException("rotation limits must be positive: " + flushSize + ", "
                + fileMaxBytes + ", " + rotateIntervalMs);
        }
    }

    /** Whether {@code files} must commit now: full by records or bytes, or open for too long. */
    public boolean isDue(PartitionFiles files, long nowMs) {
        if (files.isEmpty()) {
            return false;
        }
        return isFull(files) || nowMs - files.firstAppendMs() >= rotateIntervalMs;
    }

    /** Whether {@code files} reached {@code flushSize} records or one file reached {@code fileMaxBytes}. */
    public boolean isFull(PartitionFiles files) {
        return files.records() >= flushSize || files.largestFileBytes() >= fileMaxBytes;
    }
}
