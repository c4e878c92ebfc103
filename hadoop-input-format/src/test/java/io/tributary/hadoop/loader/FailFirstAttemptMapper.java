package io.tributary.hadoop.loader;

import io.tributary.hadoop.input.TopicRecordWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;

import java.io.IOException;

/**
 * Failure injection: passes records through, but the first attempt of every task dies after
 * writing {@link #FAIL_AFTER} records, leaving partial output for the committer to discard.
 */
public class FailFirstAttemptMapper extends Mapper<LongWritable, TopicRecordWritable, LongWritable, TopicRecordWritable> {
    static final int FAIL_AFTER = 1_000;

    private long written;

    @Override
    protected void map(LongWritable key, TopicRecordWritable value, Context context) throws IOException, InterruptedException {
        context.write(key, value);
        if (context.getTaskAttemptID().getId() == 0 && ++written == FAIL_AFTER) {
            throw new IOException("injected failure of " + context.getTaskAttemptID() + " after " + written + " records");
        }
    }
}
