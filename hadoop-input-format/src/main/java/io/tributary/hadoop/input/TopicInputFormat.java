package io.tributary.hadoop.input;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a Kafka topic as offset-range splits ({@code org.apache.hadoop.mapreduce} API): keys are
 * offsets, values {@link TopicRecordWritable}. Configure it with the {@link InputConfig} keys, or
 * {@link #configure}; with {@link InputConfig#TIERED_STORAGE} the ranges in tiered segments are read
 * straight from the FileSystem ({@link TieredSplit}). {@link MapredTopicInputFormat} is the same over the old API.
 */
public class TopicInputFormat extends InputFormat<LongWritable, TopicRecordWritable> {

    /** Sets the broker, topic and start position of a job. */
    public static void configure(Configuration conf, String bootstrapServers, String topic, String startPosition) {
        StartPosition.parse(startPosition); // fail now on a typo, not in the job
        conf.set(InputConfig.BOOTSTRAP_SERVERS, bootstrapServers);
        conf.set(InputConfig.TOPIC, topic);
        conf.set(InputConfig.START, startPosition);
    }

    @Override
    public List<InputSplit> getSplits(JobContext context) throws IOException {
        return new ArrayList<>(JobPlanning.splits(context.getConfiguration()));
    }

    @Override
    public RecordReader<LongWritable, TopicRecordWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return new TopicRecordReader();
    }

    /** The mapreduce record reader over {@link SplitReading}. */
    static final class TopicRecordReader extends RecordReader<LongWritable, TopicRecordWritable> {
        private final LongWritable key = new LongWritable();
        private final TopicRecordWritable value = new TopicRecordWritable();
        private SplitReading reading;

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
            CounterSink counters = new CounterSink() {
                @Override
                public void increment(Enum<?> counter, long amount) {
                    context.getCounter(counter).increment(amount);
                }

                @Override
                public void increment(String group, String name, long amount) {
                    context.getCounter(group, name).increment(amount);
                }
            };
            reading = new SplitReading(context.getConfiguration(), (LoadSplit) split,
                context.getTaskAttemptID().toString(), counters);
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            return reading.next(key, value);
        }

        @Override
        public LongWritable getCurrentKey() {
            return key;
        }

        @Override
        public TopicRecordWritable getCurrentValue() {
            return value;
        }

        @Override
        public float getProgress() {
            return reading == null ? 0f : reading.progress();
        }

        @Override
        public void close() {
            if (reading != null) {
                reading.close();
            }
        }
    }
}
