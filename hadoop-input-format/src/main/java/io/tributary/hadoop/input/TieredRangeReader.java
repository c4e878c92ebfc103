package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.MissingPolicy;
import io.tributary.hadoop.tiered.AbortedTransaction;
import io.tributary.hadoop.tiered.SegmentFile;
import io.tributary.hadoop.tiered.TieredLayout;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Utils;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * Reads a {@link TieredSplit} straight from its segment copies' files, one copy after the other, as a consumer of the
 * broker would see the records: from the batch each copy's offset index points at, each batch checked against its
 * CRC-32C (a copy that fails is an error naming it, and nothing of it is returned), control batches left out, and
 * under read_committed the records of the split's aborted transactions too. Not thread-safe.
 */
final class TieredRangeReader implements RangeReader {
    /** Kafka's batch header: 8-byte base offset, 4-byte length of the rest. */
    private static final int LOG_OVERHEAD = 12;
    /** Kafka's offset index entry: 4-byte offset relative to the base offset, 4-byte position. */
    private static final int INDEX_ENTRY_BYTES = 8;
    private static final int READ_BUFFER_BYTES = 1024 * 1024;

    private final FileSystem fs;
    private final TieredLayout layout;
    private final TieredSplit split;
    private final boolean readCommitted;
    private final RecordPreparer preparer;
    private final MissingPolicy onMissing;
    private final List<LostRange> lost = new ArrayList<>();
    private int copyIndex = -1;
    private TieredSplit.CopyRange copy;
    private DataInputStream in;
    private RecordBatch batch;
    private Iterator<Record> records = Collections.emptyIterator();
    private ConsumerRecord<byte[], byte[]> current;
    private Object prepared;
    private long position;
    private long doneBefore; // offsets of the copies already read

    TieredRangeReader(FileSystem fs, TieredLayout layout, TieredSplit split, IsolationLevel isolation, RecordPreparer preparer,
                      MissingPolicy onMissing) {
        this.fs = fs;
        this.layout = layout;
        this.split = split;
        this.readCommitted = isolation == IsolationLevel.READ_COMMITTED;
        this.preparer = preparer;
        this.onMissing = onMissing;
    }

    @Override
    public boolean next() throws IOException {
        while (true) {
            if (copy == null || position >= copy.range().end()) {
                if (!nextCopy()) {
                    current = null;
                    prepared = null;
                    return false;
                }
                continue;
            }
            while (records.hasNext()) {
                Record record = records.next();
                if (record.offset() < copy.range().start()) {
                    continue;
                }
                if (record.offset() >= copy.range().end()) {
                    break;
                }
                current = consumerRecord(batch, record);
                position = record.offset() + 1;
                prepared = preparer.prepare(current);
                return true;
            }
            batch = nextBatch();
            if (batch == null || batch.baseOffset() >= copy.range().end()) {
                position = copy.range().end();
                continue;
            }
            if (wanted(batch)) {
                records = batch.iterator();
            } else {
                records = Collections.emptyIterator();
                position = Math.max(position, Math.min(batch.nextOffset(), copy.range().end())); // passed without records
            }
        }
    }

    /** Moves to the next copy, opened at the batch its index names for the range's start; false after the last. */
    private boolean nextCopy() throws IOException {
        closeCopy();
        if (copy != null) {
            doneBefore += copy.range().span();
        }
        records = Collections.emptyIterator();
        while (++copyIndex < split.copies().size()) {
            copy = split.copies().get(copyIndex);
            position = copy.range().start();
            if (open()) {
                return true;
            }
            doneBefore += copy.range().span();
        }
        copy = null;
        return false;
    }

    /** Opens {@link #copy}; false if it is gone and may be skipped. */
    private boolean open() throws IOException {
        OffsetRange range = copy.range();
        Path dir = layout.copyDir(split.topic(), range.partition(), copy.location());
        Path log = new Path(dir, SegmentFile.LOG.fileName(copy.baseOffset(), range.end()));
        try {
            long start = indexedPosition(new Path(dir, SegmentFile.OFFSET_INDEX.fileName(copy.baseOffset(), range.end())));
            FSDataInputStream stream = fs.open(log);
            stream.seek(start);
            in = new DataInputStream(new BufferedInputStream(stream, READ_BUFFER_BYTES));
            return true;
        } catch (FileNotFoundException gone) {
            // Remote retention deleted the copy after planning: as retention on a broker would.
            LostRange missing = new LostRange(split.topic(), range.partition(), range.start(), range.end());
            if (onMissing == MissingPolicy.FAIL) {
                throw new LostRangeException(missing);
            }
            lost.add(missing);
            return false;
        }
    }

    private long indexedPosition(Path index) throws IOException {
        byte[] entries;
        try (FSDataInputStream stream = fs.open(index)) {
            entries = stream.readAllBytes();
        }
        ByteBuffer buffer = ByteBuffer.wrap(entries);
        long relative = copy.range().start() - copy.baseOffset();
        int position = 0;
        for (int low = 0, high = entries.length / INDEX_ENTRY_BYTES - 1; low <= high; ) {
            int middle = (low + high) >>> 1;
            if (buffer.getInt(middle * INDEX_ENTRY_BYTES) <= relative) {
                position = buffer.getInt(middle * INDEX_ENTRY_BYTES + 4);
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return position;
    }

    /** The next batch of the copy, its CRC checked; null at the copy's end. */
    private RecordBatch nextBatch() throws IOException {
        byte[] header = new byte[LOG_OVERHEAD];
        try {
            in.readFully(header);
        } catch (EOFException end) {
            return null;
        }
        int length = ByteBuffer.wrap(header).getInt(8);
        if (length < DefaultRecordBatch.RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) {
            throw corrupt("a batch header of impossible length " + length);
        }
        byte[] bytes = new byte[LOG_OVERHEAD + length];
        System.arraycopy(header, 0, bytes, 0, LOG_OVERHEAD);
        try {
            in.readFully(bytes, LOG_OVERHEAD, length);
        } catch (EOFException cut) {
            throw corrupt("it ends inside a batch");
        }
        RecordBatch read = MemoryRecords.readableRecords(ByteBuffer.wrap(bytes)).batches().iterator().next();
        if (!read.isValid()) {
            throw corrupt("the batch at offset " + read.baseOffset() + " fails its CRC");
        }
        return read;
    }

    private CorruptRecordException corrupt(String why) {
        return new CorruptRecordException("The tiered copy " + copy.location() + " of " + split.topic() + "-"
            + copy.range().partition() + " is corrupt: " + why);
    }

    /** Control batches never reach a consumer; under read_committed, neither do aborted transactions. */
    private boolean wanted(RecordBatch candidate) {
        if (candidate.isControlBatch() || candidate.lastOffset() < copy.range().start()) {
            return false;
        }
        if (readCommitted && candidate.isTransactional()) {
            for (AbortedTransaction txn : split.aborted()) {
                if (txn.covers(candidate.producerId(), candidate.baseOffset())) {
                    return false;
                }
            }
        }
        return true;
    }

    private ConsumerRecord<byte[], byte[]> consumerRecord(RecordBatch from, Record record) {
        byte[] key = record.hasKey() ? Utils.toArray(record.key()) : null;
        byte[] value = record.hasValue() ? Utils.toArray(record.value()) : null;
        return new ConsumerRecord<>(split.topic(), copy.range().partition(), record.offset(), record.timestamp(),
            from.timestampType(), key == null ? -1 : key.length, value == null ? -1 : value.length, key, value,
            new RecordHeaders(record.headers()), Optional.of(from.partitionLeaderEpoch()));
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
        long span = split.span();
        long done = doneBefore + (copy == null ? 0 : position - copy.range().start());
        return span == 0 ? 1f : Math.min(1f, (float) done / span);
    }

    @Override
    public List<LostRange> lostRanges() {
        return List.copyOf(lost);
    }

    @Override
    public void close() {
        closeCopy();
    }

    private void closeCopy() {
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                // The copy is read: a failure to close a read-only stream loses nothing.
            }
            in = null;
        }
    }
}
