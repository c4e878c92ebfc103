package io.tributary.hadoop.input;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;

/**
 * One split being read, for either API's record reader: the {@link OffsetRangeReader} over a
 * fresh consumer, plus the counting every record and every lost range goes through.
 */
final class SplitReading implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(SplitReading.class);

    private final OffsetRangeReader reader;
    private final CounterSink counters;
    private final TopicSplit split;

    SplitReading(Configuration conf, TopicSplit split, String taskAttempt, CounterSink counters) {
        InputConfig config = new InputConfig(conf);
        this.split = split;
        this.counters = counters;
        this.reader = new OffsetRangeReader(new KafkaConsumer<>(config.consumerProps("tributary-" + taskAttempt)),
            split, config.onMissing(), config.stallTimeout(), Time.SYSTEM);
    }

    /** Moves to the next record, counts it and fills {@code key} (its offset) and {@code value}; false at the end of the split. */
    boolean next(LongWritable key, TopicRecordWritable value) throws IOException {
        if (!reader.next()) {
            return false;
        }
        ConsumerRecord<byte[], byte[]> record = reader.current();
        counters.increment(TopicInputCounter.RECORDS, 1);
        counters.increment(TopicInputCounter.BYTES, RecordSizes.of(record));
        counters.increment(TopicInputCounter.PARTITION_RECORDS_GROUP, TopicInputCounter.partitionCounter(record.partition()), 1);
        value.set(record);
        key.set(record.offset());
        return true;
    }

    float progress() {
        return reader.progress();
    }

    @Override
    public void close() {
        for (LostRange lost : reader.lostRanges()) {
            log.warn("skipped {} of split {}: retention deleted it", lost, split);
            long offsets = lost.end() - lost.start();
            counters.increment(TopicInputCounter.LOST_OFFSETS, offsets);
            counters.increment(TopicInputCounter.LOST_RANGES_GROUP, TopicInputCounter.lostRangeCounter(lost), offsets);
        }
        reader.close();
    }
}
