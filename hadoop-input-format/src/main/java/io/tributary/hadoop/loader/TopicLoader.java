package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.LostRangeReport;
import io.tributary.hadoop.dataset.OffsetLedger;
import io.tributary.hadoop.input.DelegationTokens;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.input.JobPlanning;
import io.tributary.hadoop.input.LoadPlan;
import io.tributary.hadoop.input.TopicInputFormat;
import io.tributary.hadoop.input.TopicRecordWritable;
import io.tributary.hadoop.input.TokenRenewal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.config.ConfigException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code hadoop jar} loader: loads a topic's new records into the Parquet dataset with one
 * map-only job, exactly once, and advances the ledger. Run through {@link ToolRunner}, so
 * {@code -D}, {@code -conf}, {@code -libjars} and {@code -files} work; without a cluster
 * configuration Hadoop's local job runner does the work in this JVM.
 *
 * <pre>hadoop jar hadoop-input-format-&lt;version&gt;-job.jar --bootstrap-server H:P --topic T --output hdfs:///data</pre>
 *
 * Exit codes: 0 loaded, 1 the load failed (nothing changed in the dataset), 2 bad usage.
 */
public final class TopicLoader extends Configured implements Tool {
    private static final String LOCAL_MAPS = "mapreduce.local.map.tasks.maximum";
    private static final String COMPLETION_POLL_INTERVAL = "mapreduce.client.completion.pollinterval";
    private static final int LOCAL_COMPLETION_POLL_MS = 20;
    /** Above this many partitions, per-partition counters would crowd Hadoop's 120-counter limit. */
    private static final int MAX_PARTITION_COUNTERS = 50;

    private final PrintStream out;
    private final PrintStream err;

    public TopicLoader() {
        this(System.out, System.err);
    }

    public TopicLoader(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new Configuration(), new TopicLoader(), args));
    }

    @Override
    public int run(String[] args) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(LoaderOptions.USAGE);
            return 0;
        }
        LoaderOptions options;
        try {
            options = LoaderOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("tributary-loader: " + e.getMessage());
            err.println(LoaderOptions.USAGE);
            return 2;
        }
        Configuration conf = new Configuration(getConf());
        options.applyTo(conf);
        try {
            InputConfig.validate(LoaderConfig.DEFINITION, conf);
            new InputConfig(conf).isolationLevel(); // a consumer key, so not in the definition
            new LoaderConfig(conf).stagingAbandonedAfter(); // checked against the heartbeat interval
        } catch (ConfigException | IllegalArgumentException e) {
            err.println("tributary-loader: " + e.getMessage());
            return 2;
        }
        if (options.valueSchemaFile() != null) {
            conf.set(LoaderConfig.VALUE_SCHEMA, readSchema(options.valueSchemaFile(), conf));
        }
        LoaderConfig config = new LoaderConfig(conf);
        DatasetLayout layout = config.layout();
        String topic = config.topic();

        if (!options.dryRun()) {
            JobCommit.recoverPending(layout, topic, conf); // a dry run changes nothing
        }
        LoadPlan plan;
        SplitPlanReport planReport;
        try {
            plan = options.dryRun() ? JobPlanning.preview(conf) : JobPlanning.plan(conf);
            JobCommit.ledgerTarget(plan, OffsetLedger.open(layout, topic, conf).read()); // fail now, not after the work
            planReport = new SplitPlanReport(plan, JobPlanning.splits(conf));
        } catch (IOException e) {
            err.println("tributary-loader: " + e.getMessage());
            return 1;
        }
        out.println(planReport.summary());
        if (options.dryRun()) {
            out.print(planReport.splitLines());
            out.println("dry run: nothing was submitted");
            return 0;
        }
        if (conf.get(InputConfig.PARTITION_COUNTERS) == null && plan.partitions().size() > MAX_PARTITION_COUNTERS) {
            conf.setBoolean(InputConfig.PARTITION_COUNTERS, false);
        }
        long started = System.nanoTime();
        Job job = newJob(conf, topic);
        DelegationToken token = null;
        if (config.delegationToken()) {
            try {
                token = DelegationTokens.obtain(conf, job);
            } catch (IOException e) {
                err.println("tributary-loader: " + e.getMessage());
                return 1;
            }
        }
        try (TokenRenewal renewal = token == null ? null : TokenRenewal.start(conf, token)) {
            return runJob(job, conf, plan, planReport, started);
        } finally {
            if (token != null) {
                DelegationTokens.expire(conf, token);
            }
        }
    }

    /** Runs the submitted-to-be job to its end and reports it: 0 if it committed, 1 if it failed. */
    private int runJob(Job job, Configuration conf, LoadPlan plan, SplitPlanReport planReport, long started) throws Exception {
        LoaderConfig config = new LoaderConfig(conf);
        DatasetLayout layout = config.layout();
        String topic = config.topic();
        if (!new JobMonitor(out, config.progressIntervalMs()).run(job, plan.span())) {
            err.println("tributary-loader: job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
            printTaskFailures(job);
            if (OffsetLedger.open(layout, topic, conf).keptVersionNames(job.getJobID().toString())) {
                // Its commit point passed: the abort finished the renames, or the next run does (a crash in between).
                err.println("tributary-loader: the job failed after its ledger advance: offsets " + describeRanges(plan)
                    + " are in the dataset (any file still staged is moved into place by the next run); do not load them again");
                reportLostRanges(layout, topic, job, LoadSummary.lostRanges(topic, job.getCounters()), conf, err); // skipped all the same
                return 1;
            }
            try {
                JobCommit.ledgerTarget(plan, OffsetLedger.open(layout, topic, conf).read());
            } catch (IOException overtaken) { // its commit lost the ledger's compare-and-set
                err.println("tributary-loader: " + overtaken.getMessage());
            }
            err.println("the dataset is unchanged; the ledger was not advanced");
            return 1;
        }
        long durationMs = (System.nanoTime() - started) / 1_000_000;
        LoadSummary summary = LoadSummary.of(plan, planReport.splits().size(), job.getCounters(), JobPlanning.lagAfter(plan, conf),
            durationMs, layout.topicDir(topic));
        out.println(summary.describe());
        reportLostRanges(layout, topic, job, summary.lostRanges(), conf, out);
        return 0;
    }

    private static void reportLostRanges(DatasetLayout layout, String topic, Job job, List<LostRange> lost, Configuration conf,
                                         PrintStream to) throws IOException {
        if (!lost.isEmpty()) {
            to.println("lost-range report: " + LostRangeReport.write(layout, topic, job.getJobID().toString(), lost, conf));
        }
    }

    static Job newJob(Configuration conf, String topic) throws IOException {
        Job job = Job.getInstance(conf, "tributary-loader " + topic);
        // On the job's configuration, not conf: only once a Job exists has Hadoop added mapred-default.xml
        // and mapred-site.xml, which may name a cluster framework or set these keys themselves.
        applyLocalRunnerDefaults(job.getConfiguration());
        job.setJarByClass(TopicLoader.class);
        job.setInputFormatClass(TopicInputFormat.class);
        // Rows are built and shredded on the readers' fetch threads; the map thread only writes them.
        job.getConfiguration().set(InputConfig.RECORD_PREPARER, DatasetRowPreparer.Factory.class.getName());
        if (job.getConfiguration().get(MRJobConfig.MAP_CLASS_ATTR) == null) {
            job.setMapperClass(Mapper.class); // identity: the record reader and the output format do the work
        }
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(LongWritable.class);
        job.setOutputValueClass(TopicRecordWritable.class);
        job.setOutputFormatClass(DatasetOutputFormat.class);
        return job;
    }

    /**
     * Settings for Hadoop's local job runner where the user gave none: run as many maps at once as
     * there are cores (it runs one unless told otherwise), and look for the job's end every
     * {@value #LOCAL_COMPLETION_POLL_MS} ms instead of Hadoop's 5 s, which is meant for a remote
     * cluster and would add up to 5 s to every local load (locally the check is an in-memory call).
     */
    static void applyLocalRunnerDefaults(Configuration conf) {
        if (!MRConfig.LOCAL_FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME))) {
            return;
        }
        if (!setByUser(conf, LOCAL_MAPS)) {
            conf.setInt(LOCAL_MAPS, Runtime.getRuntime().availableProcessors());
        }
        if (!setByUser(conf, COMPLETION_POLL_INTERVAL)) {
            conf.setInt(COMPLETION_POLL_INTERVAL, LOCAL_COMPLETION_POLL_MS);
        }
    }

    /** Whether {@code key} is set at all, other than by Hadoop's own defaults file. */
    private static boolean setByUser(Configuration conf, String key) {
        String[] sources = conf.getPropertySources(key);
        return sources != null && !Arrays.asList(sources).equals(List.of("mapred-default.xml"));
    }

    private static String describeRanges(LoadPlan plan) {
        return plan.ranges().stream().filter(r -> !r.isEmpty())
            .map(r -> plan.topic() + "-" + r.partition() + " [" + r.start() + ", " + r.end() + ")")
            .collect(Collectors.joining(", "));
    }

    private void printTaskFailures(Job job) throws IOException, InterruptedException {
        for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 1000)) {
            if (event.getStatus() == TaskCompletionEvent.Status.FAILED) {
                for (String diagnostic : job.getTaskDiagnostics(event.getTaskAttemptId())) {
                    err.println("  " + event.getTaskAttemptId() + ": " + diagnostic.lines().findFirst().orElse(""));
                }
            }
        }
    }

    private static String readSchema(String file, Configuration conf) throws IOException {
        if (Files.isRegularFile(Paths.get(file))) {
            return Files.readString(Paths.get(file), StandardCharsets.UTF_8);
        }
        Path path = new Path(file);
        try (FSDataInputStream in = path.getFileSystem(conf).open(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
