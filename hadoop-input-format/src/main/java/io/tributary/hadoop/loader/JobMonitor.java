package io.tributary.hadoop.loader;

import io.tributary.hadoop.input.TopicInputCounter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TypeConverter;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Submits a job and follows it to its end on the console: which job it is (the YARN application
 * id and tracking URL, or the local runner's job id), then a progress line every interval.
 */
final class JobMonitor {
    private final PrintStream out;
    private final long intervalMs;

    JobMonitor(PrintStream out, long intervalMs) {
        this.out = out;
        this.intervalMs = intervalMs;
    }

    /** Runs the job to its end; whether it succeeded. */
    boolean run(Job job, long plannedOffsets) throws IOException, InterruptedException, ClassNotFoundException {
        job.submit();
        out.println(identity(job));
        long pollMs = Math.min(intervalMs, Job.getCompletionPollInterval(job.getConfiguration()));
        long nextLine = System.nanoTime() + intervalMs * 1_000_000;
        while (!job.isComplete()) {
            Thread.sleep(pollMs);
            if (System.nanoTime() - nextLine >= 0) {
                try {
                    out.println(progress(job, plannedOffsets));
                } catch (IOException e) {
                    // The status can be briefly out of reach while a finished job moves to the history server; isComplete() decides.
                }
                nextLine = System.nanoTime() + intervalMs * 1_000_000;
            }
        }
        return job.isSuccessful();
    }

    private static String identity(Job job) {
        String framework = job.getConfiguration().get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
        if (!MRConfig.YARN_FRAMEWORK_NAME.equals(framework)) {
            return "running job " + job.getJobID() + " with the " + framework + " job runner";
        }
        return "submitted application " + TypeConverter.toYarn(job.getJobID()).getAppId() + " (job " + job.getJobID() + ")"
            + " to queue " + job.getConfiguration().get("mapreduce.job.queuename", "default")
            + "\ntracking URL: " + job.getTrackingURL();
    }

    private static String progress(Job job, long plannedOffsets) throws IOException, InterruptedException {
        Counters counters = job.getCounters();
        long records = counters == null ? 0 : counters.findCounter(TopicInputCounter.RECORDS).getValue();
        return String.format(Locale.ROOT, "progress: %s, map %.0f%%, %d of at most %d records read",
            job.getJobState().toString().toLowerCase(Locale.ROOT), job.mapProgress() * 100, records, plannedOffsets);
    }
}
