package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.tiered.TieredLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadFactory;

/**
 * One split being read, for either API's record reader: for a {@link TopicSplit} the {@link OffsetRangeReader} over a
 * fresh consumer with the job's {@link RecordPreparer} (behind a {@link PrefetchingRangeReader}
 * unless {@link InputConfig#READER_PREFETCH} is off), for a {@link TieredSplit} the {@link TieredRangeReader} of its
 * segment copy; plus the counting every record and every lost range goes through.
 */
final class SplitReading implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(SplitReading.class);

    /** Hadoop counter updates are not free: they are batched and flushed every this many records. */
    private static final int COUNTER_FLUSH_RECORDS = 10_000;

    private final RangeReader reader;
    private final CounterSink counters;
    private final LoadSplit split;
    private final boolean partitionCounters;
    private final Map<Integer, Long> partitionRecords = new TreeMap<>();
    private long records;
    private long bytes;
    // Records come in runs of one partition: count the run, not a map entry per record.
    private int runPartition = -1;
    private long runRecords;

    SplitReading(Configuration conf, LoadSplit split, String taskAttempt, CounterSink counters) throws IOException {
        InputConfig config = new InputConfig(conf);
        this.split = split;
        this.counters = counters;
        this.partitionCounters = config.partitionCounters();
        if (split instanceof TieredSplit tiered) {
            Path root = new Path(config.tieredStorage().orElseThrow(() ->
                new IllegalArgumentException("a tiered split needs " + InputConfig.TIERED_STORAGE)));
            FileSystem fs = root.getFileSystem(conf);
            this.reader = new TieredRangeReader(fs, new TieredLayout(fs.makeQualified(root)), tiered, config.isolationLevel(),
                config.recordPreparer(), config.onMissing());
            return;
        }
        OffsetRangeReader ranges = new OffsetRangeReader(new KafkaConsumer<>(config.consumerProps("tributary-" + taskAttempt)),
            (TopicSplit) split, config.onMissing(), config.stallTimeout(), Time.SYSTEM, config.recordPreparer());
        this.reader = config.readerPrefetch() ? new PrefetchingRangeReader(ranges, fetchThreads(taskAttempt)) : ranges;
    }

    private static ThreadFactory fetchThreads(String taskAttempt) {
        return task -> {
            Thread thread = new Thread(task, "tributary-fetch-" + taskAttempt);
            thread.setDaemon(true); // never keeps a JVM alive, even if a caller forgets close()
            return thread;
        };
    }

    /** Moves to the next record, counts it and fills {@code key} (its offset) and {@code value}; false at the end of the split. */
    boolean next(LongWritable key, TopicRecordWritable value) throws IOException {
        if (!reader.next()) {
            return false;
        }
        ConsumerRecord<byte[], byte[]> record = reader.current();
        bytes += reader.currentSize();
        if (partitionCounters) {
            if (record.partition() != runPartition) {
                endRun();
                runPartition = record.partition();
            }
            runRecords++;
        }
        if (++records % COUNTER_FLUSH_RECORDS == 0) {
            flushCounters();
        }
        value.set(record, reader.prepared());
        key.set(record.offset());
        return true;
    }

    float progress() {
        return reader.progress();
    }

    private void endRun() {
        if (runRecords > 0) {
            partitionRecords.merge(runPartition, runRecords, Long::sum);
            runRecords = 0;
        }
    }

    private void flushCounters() {
        endRun();
        counters.increment(TopicInputCounter.RECORDS, records);
        counters.increment(TopicInputCounter.BYTES, bytes);
        partitionRecords.forEach((p, n) -> counters.increment(TopicInputCounter.PARTITION_RECORDS_GROUP, TopicInputCounter.partitionCounter(p), n));
        records = 0;
        bytes = 0;
        partitionRecords.clear();
    }

    @Override
    public void close() {
        flushCounters();
        for (LostRange lost : reader.lostRanges()) {
            log.warn("skipped {} of split {}: retention deleted it", lost, split);
            long offsets = lost.end() - lost.start();
            counters.increment(TopicInputCounter.LOST_OFFSETS, offsets);
            counters.increment(TopicInputCounter.LOST_RANGES_GROUP, TopicInputCounter.lostRangeCounter(lost), offsets);
        }
        reader.close();
    }
}
