package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DurableFiles;
import io.tributary.hadoop.dataset.JobStaging;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.input.LoadPlan;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Makes a loader job exactly once (see {@link JobStaging} for the paths):
 * <ul>
 *   <li>a task attempt writes only inside its own attempt directory;</li>
 *   <li>task commit renames that directory to the task's (the application master lets one
 *       attempt per task commit, so a retried or speculative attempt can never add a second
 *       copy), and abort deletes it;</li>
 *   <li>job commit ({@link JobCommit}) checks the ledger still matches the plan, records its
 *       intent, advances the ledger by compare-and-set (refusing if another writer moved it),
 *       then renames every committed file into the dataset;</li>
 *   <li>job abort deletes the staging area, leaving the dataset as it was, unless the commit's
 *       ledger advance had already happened: then it finishes the commit instead.</li>
 * </ul>
 */
public class DatasetOutputCommitter extends OutputCommitter {
    private static final Logger log = LoggerFactory.getLogger(DatasetOutputCommitter.class);

    static JobStaging staging(JobContext context) {
        LoaderConfig config = new LoaderConfig(context.getConfiguration());
        return new JobStaging(config.layout(), config.topic(), context.getJobID().toString());
    }

    private StagingHeartbeat heartbeat; // from set-up to commit or abort, in the process that runs them

    @Override
    public void setupJob(JobContext context) throws IOException {
        JobStaging staging = staging(context);
        FileSystem fs = fs(staging, context.getConfiguration());
        fs.mkdirs(staging.jobDir());
        DurableFiles.write(fs, staging.stagedToken(), staging.jobId().getBytes(StandardCharsets.UTF_8), true);
        stopHeartbeat();
        heartbeat = StagingHeartbeat.start(fs, staging.stagedToken(), new LoaderConfig(context.getConfiguration()).stagingHeartbeatInterval());
    }

    @Override
    public void setupTask(TaskAttemptContext context) {
        // The record writer creates the attempt directory when it writes its first file.
    }

    @Override
    public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
        JobStaging staging = staging(context);
        return fs(staging, context.getConfiguration()).exists(attemptDir(staging, context));
    }

    @Override
    public void commitTask(TaskAttemptContext context) throws IOException {
        JobStaging staging = staging(context);
        Configuration conf = context.getConfiguration();
        FileSystem fs = fs(staging, conf);
        Path attempt = attemptDir(staging, context);
        if (!fs.exists(attempt)) {
            return;
        }
        fs.delete(new Path(attempt, JobStaging.IN_PROGRESS), true);
        fs.mkdirs(staging.tasksDir());
        Path task = fs.makeQualified(staging.taskDir(context.getTaskAttemptID().getTaskID().toString()));
        // Without OVERWRITE the rename fails if another attempt of this task already committed.
        FileContext.getFileContext(task.toUri(), conf).rename(fs.makeQualified(attempt), task, Options.Rename.NONE);
    }

    @Override
    public void abortTask(TaskAttemptContext context) throws IOException {
        JobStaging staging = staging(context);
        fs(staging, context.getConfiguration()).delete(attemptDir(staging, context), true);
    }

    @Override
    public void commitJob(JobContext context) throws IOException {
        Configuration conf = context.getConfiguration();
        JobStaging staging = staging(context);
        String plan = conf.get(InputConfig.PLAN);
        try {
            if (plan == null) {
                // Planning again now would see newer high watermarks than the tasks read up to.
                throw new IOException("the job has no " + InputConfig.PLAN + ": use TopicInputFormat, which fixes it at submission");
            }
            JobCommit.open(staging, conf).commit(LoadPlan.decode(plan));
        } finally {
            stopHeartbeat(); // a failed commit is aborted next, which decides by its marker, not by signs of life
        }
    }

    @Override
    public void abortJob(JobContext context, JobStatus.State state) throws IOException {
        stopHeartbeat();
        Configuration conf = context.getConfiguration();
        JobStaging staging = staging(context);
        FileSystem fs = fs(staging, conf);
        if (fs.exists(staging.committingMarker())) {
            boolean committed = JobCommit.open(staging, conf).finishOrDiscard();
            log.warn("job {} failed while committing; {}", staging.jobId(), committed
                ? "its ledger advance had happened, so its commit was finished and the dataset is whole"
                : "its ledger advance had not happened, so its files were deleted and the dataset is unchanged");
            return;
        }
        fs.delete(staging.jobDir(), true);
    }

    /** Stops touching the staging area's token: the job is committed, aborted, or (in tests) killed. */
    void stopHeartbeat() {
        if (heartbeat != null) {
            heartbeat.close();
            heartbeat = null;
        }
    }

    private static Path attemptDir(JobStaging staging, TaskAttemptContext context) {
        return staging.attemptDir(context.getTaskAttemptID().toString());
    }

    private static FileSystem fs(JobStaging staging, Configuration conf) throws IOException {
        return staging.layout().root().getFileSystem(conf);
    }
}
