package io.tributary.examples.serverlogs;

import io.tributary.examples.SchemaFiles;
import io.tributary.hadoop.dataset.RecordSchema;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.parquet.avro.AvroParquetInputFormat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The batch half's follow-up job: reads the {@code server-logs} table of the dataset (the Parquet
 * files the loader wrote, through parquet-avro's {@link AvroParquetInputFormat}, reading only the
 * {@code host} and {@code level} columns) and counts ERROR lines per host into a text file of
 * {@code host<TAB>count} lines.
 *
 * <pre>hadoop jar examples-&lt;version&gt;.jar io.tributary.examples.serverlogs.ErrorsPerHostJob &lt;dataset&gt; &lt;output dir&gt;</pre>
 */
public final class ErrorsPerHostJob extends Configured implements Tool {
    static final String SCHEMA_RESOURCE = "/io/tributary/examples/serverlogs/server-log.avsc";

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new Configuration(), new ErrorsPerHostJob(), args));
    }

    @Override
    public int run(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ErrorsPerHostJob <dataset root> <output dir>");
            return 2;
        }
        Job job = Job.getInstance(getConf(), "errors per host of " + ServerLogPipeline.TOPIC);
        job.setJarByClass(ErrorsPerHostJob.class);
        job.setInputFormatClass(AvroParquetInputFormat.class);
        AvroParquetInputFormat.setRequestedProjection(job, projection());
        FileInputFormat.setInputDirRecursive(job, true); // the table is <topic>/dt=.../hr=.../*.parquet
        FileInputFormat.addInputPath(job, new Path(args[0], ServerLogPipeline.TOPIC));
        job.setMapperClass(ErrorMapper.class);
        job.setCombinerClass(LongSumReducer.class);
        job.setReducerClass(LongSumReducer.class);
        job.setNumReduceTasks(1);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(LongWritable.class);
        job.setOutputFormatClass(TextOutputFormat.class);
        FileOutputFormat.setOutputPath(job, new Path(args[1]));
        return job.waitForCompletion(false) ? 0 : 1;
    }

    /** Only the two columns the job needs, with the types the dataset gave them (decoded fields are nullable). */
    static Schema projection() {
        Schema row = RecordSchema.withDecodedValue(SchemaFiles.parse(SCHEMA_RESOURCE));
        List<Schema.Field> fields = List.of(copy(row.getField("host")), copy(row.getField("level")));
        return Schema.createRecord(row.getName(), row.getDoc(), row.getNamespace(), false, fields);
    }

    private static Schema.Field copy(Schema.Field field) {
        return new Schema.Field(field.name(), field.schema(), field.doc(), field.defaultVal());
    }

    /** Emits (host, 1) for each ERROR row. */
    public static final class ErrorMapper extends Mapper<Void, GenericRecord, Text, LongWritable> {
        private static final LongWritable ONE = new LongWritable(1);
        private final Text host = new Text();

        @Override
        protected void map(Void key, GenericRecord row, Context context) throws IOException, InterruptedException {
            Object level = row.get("level");
            if (level != null && "ERROR".equals(level.toString())) {
                host.set(String.valueOf(row.get("host")));
                context.write(host, ONE);
            }
        }
    }

    /** Reads the job's output back: errors per host. */
    public static Map<String, Long> readResult(Path outputDir, Configuration conf) throws IOException {
        FileSystem fs = outputDir.getFileSystem(conf);
        Map<String, Long> errors = new TreeMap<>();
        for (FileStatus part : fs.listStatus(outputDir, path -> path.getName().startsWith("part-"))) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    String[] hostAndCount = line.split("\t");
                    errors.put(hostAndCount[0], Long.parseLong(hostAndCount[1]));
                }
            }
        }
        return errors;
    }
}
