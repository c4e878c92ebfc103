package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.MissingPolicy;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * Reads exactly the offsets {@code [start, end)} of each range of a split, one range after the
 * other, with assign + seek + poll. Offsets need not be dense: a range is done when the
 * consumer's position reaches its end, whatever gaps (compaction, transaction markers, aborted
 * records a {@code read_committed} consumer leaves out) lie before it; only offsets below the
 * log start are reported lost. The core of both the {@code mapreduce} and the {@code mapred} record readers.
 * Not thread-safe.
 */
public final class OffsetRangeReader implements RangeReader {
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    private final Consumer<byte[], byte[]> consumer;
    private final TopicSplit split;
    private final MissingPolicy onMissing;
    private final Duration stallTimeout;
    private final Time time;
    private final RecordPreparer preparer;
    private final long span; // progress() runs for every record: sum the ranges once
    private final List<LostRange> lost = new ArrayList<>();

    private int rangeIndex = -1;
    private TopicPartition partition;
    private OffsetRange range;
    private Iterator<ConsumerRecord<byte[], byte[]>> batch = Collections.emptyIterator();
    private ConsumerRecord<byte[], byte[]> current;
    private Object prepared;
    private long doneBefore; // offsets of the ranges already finished
    private long position; // next offset of the current range
    private long lastProgressMs;

    public OffsetRangeReader(Consumer<byte[], byte[]> consumer, TopicSplit split, MissingPolicy onMissing,
                             Duration stallTimeout, Time time) {
        this(consumer, split, onMissing, stallTimeout, time, RecordPreparer.NONE);
    }

    /** A reader that runs {@code preparer} on every record it moves to. */
    public OffsetRangeReader(Consumer<byte[], byte[]> consumer, TopicSplit split, MissingPolicy onMissing,
                             Duration stallTimeout, Time time, RecordPreparer preparer) {
        this.consumer = consumer;
        this.preparer = preparer;
        this.split = split;
        this.span = split.span();
        this.onMissing = onMissing;
        this.stallTimeout = stallTimeout;
        this.time = time;
    }

    @Override
    public boolean next() throws IOException {
        while (true) {
            if (range == null || position >= range.end()) {
                if (!nextRange()) {
                    current = null;
                    prepared = null;
                    return false;
                }
                continue;
            }
            if (batch.hasNext()) {
                ConsumerRecord<byte[], byte[]> record = batch.next();
                if (record.offset() < position) {
                    continue; // already delivered (cannot happen after a seek, but costs nothing to guard)
                }
                if (record.offset() >= range.end()) {
                    position = range.end();
                    continue;
                }
                current = record;
                position = record.offset() + 1;
                prepared = preparer.prepare(record); // after moving on: a failing record is not read again
                return true;
            }
            poll();
        }
    }

    @Override
    public ConsumerRecord<byte[], byte[]> current() {
        return current;
    }

    @Override
    public Object prepared() {
        return prepared;
    }

    @Override
    public long currentSize() {
        return RecordSizes.of(current);
    }

    @Override
    public float progress() {
        if (span == 0) {
            return 1f;
        }
        long done = doneBefore + (range == null ? 0 : position - range.start());
        return Math.min(1f, (float) done / span);
    }

    @Override
    public List<LostRange> lostRanges() {
        return List.copyOf(lost);
    }

    /** Whether {@link #next()} can likely answer from records already fetched, without a poll. */
    boolean hasFetchedRecords() {
        return batch.hasNext();
    }

    /** Makes a poll running on another thread return early with a {@code WakeupException}; the one thread-safe call. */
    void wakeup() {
        consumer.wakeup();
    }

    private boolean nextRange() {
        if (range != null) {
            doneBefore += range.span();
        }
        batch = Collections.emptyIterator();
        while (++rangeIndex < split.ranges().size()) {
            OffsetRange r = split.ranges().get(rangeIndex);
            if (r.isEmpty()) {
                continue;
            }
            range = r;
            partition = new TopicPartition(split.topic(), r.partition());
            consumer.assign(List.of(partition));
            consumer.seek(partition, r.start());
            position = r.start();
            lastProgressMs = time.milliseconds();
            return true;
        }
        range = null;
        return false;
    }

    private void poll() throws IOException {
        long before = position;
        try {
            batch = consumer.poll(POLL_TIMEOUT).records(partition).iterator();
            // The position passes gaps, transaction markers and aborted records (under read_committed)
            // even when no record is returned: a range that ends in them is done all the same.
            long consumerPosition = consumer.position(partition);
            if (!batch.hasNext() && consumerPosition > position) {
                position = Math.min(consumerPosition, range.end());
            }
        } catch (OffsetOutOfRangeException e) {
            skipLostRecords();
        }
        // Moving past offsets without records is progress too: a long aborted transaction returns none.
        if (batch.hasNext() || position > before) {
            lastProgressMs = time.milliseconds();
        } else if (time.milliseconds() - lastProgressMs > stallTimeout.toMillis()) {
            throw new IOException("no progress reading " + partition + " at offset " + position + " of "
                + range + " for " + stallTimeout.toSeconds() + " s");
        }
    }

    private void skipLostRecords() throws IOException {
        long logStart = consumer.beginningOffsets(List.of(partition)).get(partition);
        if (logStart <= position) {
            throw new IOException("offset " + position + " of " + partition + " is out of range but not below the log start "
                + logStart + " (was the partition truncated or recreated?)");
        }
        LostRange gap = new LostRange(split.topic(), partition.partition(), position, Math.min(logStart, range.end()));
        if (onMissing == MissingPolicy.FAIL) {
            throw new LostRangeException(gap);
        }
        lost.add(gap);
        position = gap.end();
        if (position < range.end()) {
            consumer.seek(partition, position);
        }
    }

    /**
     * Closes the consumer without waiting for the broker. A range reader has no group and no
     * offsets to commit; a graceful close would only wait for the fetch the consumer sent ahead for
     * offsets past the range's end, which the broker holds for up to {@code fetch.max.wait.ms}
     * because there is no data (measured: 0.5 s at the end of every split).
     */
    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ZERO));
    }
}
