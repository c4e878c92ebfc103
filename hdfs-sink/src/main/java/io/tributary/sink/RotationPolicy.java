package io.tributary.sink;

/**
 * When the open files of a partition commit: at {@code flushSize} records, when one file reaches
 * {@code fileMaxBytes}, or {@code rotateIntervalMs} after the first uncommitted record arrived,
 * whether or not more records come (the poll loop asks {@link #isDue} after every poll, and polls
 * no longer than until the earliest {@link #dueAtMs}). The
 * size is looked at every {@value #BYTES_CHECK_INTERVAL} records and after every poll: asking
 * Parquet for it on every record costs more than a file overshooting by a few rows.
 */
public record RotationPolicy(int flushSize, long fileMaxBytes, long rotateIntervalMs) {
    static final int BYTES_CHECK_INTERVAL = 64;

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
        return files.records() >= flushSize || files.largestFileBytes() >= fileMaxBytes || nowMs >= dueAtMs(files);
    }

    /** When the timer makes {@code files} due, Long.MAX_VALUE while they are empty. */
    public long dueAtMs(PartitionFiles files) {
        return files.isEmpty() ? Long.MAX_VALUE : files.firstAppendMs() + rotateIntervalMs;
    }

    /** Asked after each record: whether {@code files} reached {@code flushSize} records or (checked every few records) {@code fileMaxBytes}. */
    public boolean isFull(PartitionFiles files) {
        long records = files.records();
        return records >= flushSize
            || (records % BYTES_CHECK_INTERVAL == 0 && files.largestFileBytes() >= fileMaxBytes);
    }
}
