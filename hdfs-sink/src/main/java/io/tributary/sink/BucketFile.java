package io.tributary.sink;

import io.tributary.hadoop.dataset.DataFileName;
import io.tributary.hadoop.dataset.DatasetLayout;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetWriter;

import java.io.IOException;

/**
 * One open Parquet temp file: the records of one partition that fall into one time bucket since
 * the partition's last commit. Its final name follows from the first and last offset written.
 * Not thread-safe.
 */
final class BucketFile {
    private final Path temp;
    private final long bucketTimestampMs;
    private final ParquetWriter<GenericRecord> writer;
    private long firstOffset = -1;
    private long lastOffset = -1;
    private long records;

    BucketFile(Path temp, long bucketTimestampMs, ParquetWriter<GenericRecord> writer) {
        this.temp = temp;
        this.bucketTimestampMs = bucketTimestampMs;
        this.writer = writer;
    }

    void write(GenericRecord row, long offset) throws IOException {
        writer.write(row);
        if (firstOffset < 0) {
            firstOffset = offset;
        }
        lastOffset = offset;
        records++;
    }

    /** Bytes written plus buffered; the buffered part is what counts against the memory budget. */
    long dataBytes() {
        return writer.getDataSize();
    }

    long records() {
        return records;
    }

    Path temp() {
        return temp;
    }

    /** Writes the footer; the file is complete but still invisible under its temp name. */
    void close() throws IOException {
        writer.close();
    }

    /** Closes without caring whether it works; the temp file is removed by the next recovery. */
    void abandon() {
        try {
            writer.close();
        } catch (IOException | RuntimeException ignored) {
            // The storage is failing or the file is being given up anyway.
        }
    }

    DataFileName finalName(String topic, int partition) {
        return DataFileName.of(topic, partition, firstOffset, lastOffset);
    }

    Path finalPath(DatasetLayout layout, String topic, int partition) {
        return layout.dataFile(bucketTimestampMs, finalName(topic, partition));
    }
}
