package io.tributary.sink;

import io.tributary.hadoop.dataset.CommitIntent;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.HourBuckets;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The open files of one partition since its last commit, one per time bucket, and the offset
 * range they cover. All of them commit together: files of two buckets interleave in offsets, so
 * committing one alone would let the newest-file cross-check skip records of the other.
 * Not thread-safe.
 */
final class PartitionFiles {
    private final TopicPartition partition;
    private final DatasetLayout layout;
    private final ParquetWriterFactory writers;
    private final Schema schema;
    private final OpenFileCost cost;
    private final HourBuckets buckets;
    private final Map<String, BucketFile> byBucket = new LinkedHashMap<>();
    private String lastBucket;
    private BucketFile lastFile;
    private long records;
    private long firstAppendMs = -1;
    private long oldestTimestampMs = Long.MAX_VALUE;
    private long nextOffset;
    private long basisVersion;
    private OptionalLong ledgerEntry;

    /** @param resume where the partition resumed (the first offset these files may hold) and the ledger it read */
    PartitionFiles(TopicPartition partition, DatasetLayout layout, ParquetWriterFactory writers, Schema schema,
                   OpenFileCost cost, ResumePoint resume) {
        this.partition = partition;
        this.layout = layout;
        this.writers = writers;
        this.schema = schema;
        this.cost = cost;
        this.buckets = new HourBuckets(layout);
        this.nextOffset = resume.position().orElse(0);
        this.basisVersion = resume.basisVersion();
        this.ledgerEntry = resume.ledgerEntry();
    }

    /** Appends a converted record to the file of its time bucket, opening that file if needed. */
    void append(GenericRecord row, long offset, long timestampMs, long nowMs) throws IOException {
        String bucket = buckets.bucketName(timestampMs);
        // Most records fall into the bucket of the one before: skip the map then.
        BucketFile file = bucket.equals(lastBucket) ? lastFile : byBucket.get(bucket);
        if (file == null) {
            var temp = layout.newTempFile(partition.topic(), partition.partition());
            file = new BucketFile(temp, timestampMs, writers.open(temp, schema));
            byBucket.put(bucket, file);
        }
        lastBucket = bucket;
        lastFile = file;
        file.write(row, offset);
        noteConsumed(offset, nowMs);
        records++;
        oldestTimestampMs = Math.min(oldestTimestampMs, timestampMs);
    }

    /** Moves past a record that is left out of the dataset (skipped or dead-lettered). */
    void skip(long offset, long nowMs) {
        noteConsumed(offset, nowMs);
    }

    /**
     * Moves past offsets the log no longer has: the next commit moves the ledger to at least
     * {@code next}, even if no record follows before it.
     */
    void skipTo(long next, long nowMs) {
        if (next > nextOffset) {
            noteConsumed(next - 1, nowMs);
        }
    }

    private void noteConsumed(long offset, long nowMs) {
        if (firstAppendMs < 0) {
            firstAppendMs = nowMs;
        }
        nextOffset = offset + 1;
    }

    TopicPartition partition() {
        return partition;
    }

    /** Nothing consumed since the last commit. */
    boolean isEmpty() {
        return firstAppendMs < 0;
    }

    long records() {
        return records;
    }

    /** When the oldest uncommitted record arrived (the sink's clock), -1 if none. */
    long firstAppendMs() {
        return firstAppendMs;
    }

    /** The smallest record timestamp among uncommitted records, Long.MAX_VALUE if none. */
    long oldestTimestampMs() {
        return oldestTimestampMs;
    }

    /** The offset after the last record consumed: what the ledger moves to when these files commit. */
    long nextOffset() {
        return nextOffset;
    }

    long largestFileBytes() {
        long largest = 0;
        for (BucketFile f : byBucket.values()) {
            largest = Math.max(largest, f.dataBytes());
        }
        return largest;
    }

    /** An estimate of the heap the open files hold: their data plus the buffers of each writer. */
    long memoryBytes() {
        long total = 0;
        for (BucketFile f : byBucket.values()) {
            total += cost.bytes(f.dataBytes());
        }
        return total;
    }

    /** Closes every file (their bytes durable) and returns the intent that commits them. */
    CommitIntent closeForCommit() throws IOException {
        List<CommitIntent.Rename> renames = new ArrayList<>();
        for (BucketFile file : byBucket.values()) {
            file.close();
            renames.add(new CommitIntent.Rename(file.temp(), file.finalPath(layout, partition.topic(), partition.partition())));
        }
        return new CommitIntent(nextOffset, "", basisVersion, ledgerEntry, renames);
    }

    /** The files committed and the ledger is at {@link #nextOffset()} in version {@code version}: the next commit's basis. */
    void committed(long version) {
        basisVersion = version;
        ledgerEntry = OptionalLong.of(nextOffset);
        reset();
    }

    Collection<BucketFile> files() {
        return List.copyOf(byBucket.values());
    }

    /** Forgets the files (after they committed or were abandoned); the next ones start at {@link #nextOffset()}. */
    void reset() {
        byBucket.clear();
        lastBucket = null;
        lastFile = null;
        records = 0;
        firstAppendMs = -1;
        oldestTimestampMs = Long.MAX_VALUE;
    }

    /** Closes every file without committing; used when the partition failed or was lost. */
    void abandon() {
        byBucket.values().forEach(BucketFile::abandon);
        reset();
    }
}
