package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.JobStaging;
import io.tributary.hadoop.input.TopicRecordWritable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

import java.io.IOException;

/**
 * Writes {@link TopicRecordWritable}s into the shared Parquet dataset, exactly once: see
 * {@link DatasetOutputCommitter} for how attempts become visible.
 */
public class DatasetOutputFormat extends OutputFormat<LongWritable, TopicRecordWritable> {

    @Override
    public RecordWriter<LongWritable, TopicRecordWritable> getRecordWriter(TaskAttemptContext context) throws IOException {
        Configuration conf = context.getConfiguration();
        LoaderConfig config = new LoaderConfig(conf);
        JobStaging staging = DatasetOutputCommitter.staging(context);
        return new DatasetRecordWriter(staging.layout().root().getFileSystem(conf), staging.layout(),
            staging.attemptDir(context.getTaskAttemptID().toString()), config.converter(), config.writerFactory(),
            config.maxOpenFiles());
    }

    /** Fails the submission early on a bad output setting (dataset, zone, codec, a value schema Parquet cannot hold). */
    @Override
    public void checkOutputSpecs(JobContext context) {
        LoaderConfig config = new LoaderConfig(context.getConfiguration());
        config.layout();
        config.writerFactory().shredder(config.converter().schema());
    }

    @Override
    public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
        return new DatasetOutputCommitter();
    }
}
