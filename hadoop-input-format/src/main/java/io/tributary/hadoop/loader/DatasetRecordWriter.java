package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DataFileName;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.HourBuckets;
import io.tributary.hadoop.dataset.JobStaging;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.dataset.RowShredder;
import io.tributary.hadoop.dataset.ShreddedRow;
import io.tributary.hadoop.input.TopicRecordWritable;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.parquet.hadoop.ParquetWriter;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Writes one task attempt's records as Parquet, one file per partition and time bucket, into
 * the attempt's staging directory. Files are written under {@code _inprogress/} and renamed to
 * their final relative name (which needs the last offset) when they are finished: when the
 * attempt closes, or early when more than {@code maxOpenFiles} are open (Parquet buffers a row
 * group per open file; a backfill over many hours must not hold them all). A bucket that comes
 * back after its file was finished gets a new file, named by its own offsets. Not thread-safe,
 * like every Hadoop record writer.
 */
final class DatasetRecordWriter extends RecordWriter<LongWritable, TopicRecordWritable> {
    private final FileSystem fs;
    private final DatasetLayout layout;
    private final Path attemptDir;
    private final RecordConverter converter;
    private final ParquetWriterFactory writers;
    private final HourBuckets buckets;
    private final RowShredder shredder;
    private final int maxOpenFiles;
    private final Map<String, OpenFile> open = new LinkedHashMap<>(16, 0.75f, true); // least recently written first
    private OpenFile last; // records mostly come in runs of one partition and hour
    private long filesWritten;
    private long rowsWritten;
    private long bytesWritten;

    DatasetRecordWriter(FileSystem fs, DatasetLayout layout, Path attemptDir, RecordConverter converter,
                        ParquetWriterFactory writers, int maxOpenFiles) {
        if (maxOpenFiles < 1) {
            throw new IllegalArgumentException("at least one open file is needed, got " + maxOpenFiles);
        }
        this.maxOpenFiles = maxOpenFiles;
        this.fs = fs;
        this.layout = layout;
        this.attemptDir = attemptDir;
        this.converter = converter;
        this.writers = writers;
        this.buckets = new HourBuckets(layout);
        this.shredder = writers.shredder(converter.schema());
    }

    @Override
    public void write(LongWritable offset, TopicRecordWritable record) throws IOException {
        String bucket = buckets.bucketName(record.timestamp());
        OpenFile file = last;
        if (file == null || file.partition != record.partition() || !file.bucket.equals(bucket)) {
            file = open.get(record.partition() + "/" + bucket);
            if (file == null) {
                file = openFile(record, bucket);
            }
            last = file;
        }
        // The row is normally built and shredded on the reader's fetch thread (DatasetRowPreparer); here only if it was not.
        file.writer.write(record.prepared() instanceof ShreddedRow row ? row
            : shredder.shred(record.toAvro(converter), record.topic(), record.partition(), record.offset()));
        file.lastOffset = record.offset();
        file.rows++;
    }

    private OpenFile openFile(TopicRecordWritable record, String bucket) throws IOException {
        if (open.size() >= maxOpenFiles) {
            Iterator<OpenFile> eldest = open.values().iterator();
            finish(eldest.next());
            eldest.remove();
        }
        Path temp = new Path(new Path(attemptDir, JobStaging.IN_PROGRESS), UUID.randomUUID() + ".tmp");
        OpenFile file = new OpenFile(record.topic(), record.partition(), bucket, temp, writers.openShredded(temp, converter.schema()), record.offset());
        open.put(record.partition() + "/" + bucket, file);
        return file;
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException {
        for (OpenFile file : open.values()) {
            finish(file);
        }
        open.clear();
        last = null;
        context.getCounter(LoaderCounter.FILES_WRITTEN).increment(filesWritten);
        context.getCounter(LoaderCounter.ROWS_WRITTEN).increment(rowsWritten);
        context.getCounter(LoaderCounter.BYTES_WRITTEN).increment(bytesWritten);
    }

    private void finish(OpenFile file) throws IOException {
        file.writer.close();
        DataFileName name = DataFileName.of(file.topic, file.partition, file.firstOffset, file.lastOffset);
        Path target = new Path(new Path(new Path(attemptDir, file.topic), file.bucket), name.fileName());
        fs.mkdirs(target.getParent());
        if (!fs.rename(file.temp, target)) {
            throw new IOException("could not rename " + file.temp + " to " + target);
        }
        filesWritten++;
        rowsWritten += file.rows;
        bytesWritten += fs.getFileStatus(target).getLen();
        if (file == last) {
            last = null;
        }
    }

    private static final class OpenFile {
        final String topic;
        final int partition;
        final String bucket;
        final Path temp;
        final ParquetWriter<ShreddedRow> writer;
        final long firstOffset;
        long lastOffset;
        long rows;

        OpenFile(String topic, int partition, String bucket, Path temp, ParquetWriter<ShreddedRow> writer, long firstOffset) {
            this.topic = topic;
            this.partition = partition;
            this.bucket = bucket;
            this.temp = temp;
            this.writer = writer;
            this.firstOffset = firstOffset;
            this.lastOffset = firstOffset;
        }
    }
}
