package io.tributary.hadoop.input;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

import java.io.IOException;

/**
 * {@link TopicInputFormat} for the old {@code org.apache.hadoop.mapred} API (Hive, legacy jobs):
 * the same planning, splits and reading, over {@link JobPlanning} and {@link SplitReading}.
 */
public class MapredTopicInputFormat implements InputFormat<LongWritable, TopicRecordWritable> {

    @Override
    public InputSplit[] getSplits(JobConf job, int numSplitsHint) throws IOException {
        return JobPlanning.splits(job).toArray(new InputSplit[0]);
    }

    @Override
    public RecordReader<LongWritable, TopicRecordWritable> getRecordReader(InputSplit split, JobConf job, Reporter reporter)
            throws IOException {
        CounterSink counters = new CounterSink() {
            @Override
            public void increment(Enum<?> counter, long amount) {
                reporter.incrCounter(counter, amount);
            }

            @Override
            public void increment(String group, String name, long amount) {
                reporter.incrCounter(group, name, amount);
            }
        };
        String attempt = job.get("mapreduce.task.attempt.id", "mapred-task");
        return new Reader(new SplitReading(job, (LoadSplit) split, attempt, counters), (LoadSplit) split);
    }

    private static final class Reader implements RecordReader<LongWritable, TopicRecordWritable> {
        private final SplitReading reading;
        private final LoadSplit split;

        Reader(SplitReading reading, LoadSplit split) {
            this.reading = reading;
            this.split = split;
        }

        @Override
        public boolean next(LongWritable key, TopicRecordWritable value) throws IOException {
            return reading.next(key, value);
        }

        @Override
        public LongWritable createKey() {
            return new LongWritable();
        }

        @Override
        public TopicRecordWritable createValue() {
            return new TopicRecordWritable();
        }

        /** Offsets read so far. */
        @Override
        public long getPos() {
            return (long) (reading.progress() * split.span());
        }

        @Override
        public float getProgress() {
            return reading.progress();
        }

        @Override
        public void close() {
            reading.close();
        }
    }
}
