package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.Path;

/**
 * The staging area of one loader job, {@code <root>/_tributary/jobs/<topic>/<jobId>/}:
 * <pre>
 * attempts/&lt;attemptId&gt;/&lt;topic&gt;/dt=…/hr=…/&lt;file&gt;   a task attempt's output (final relative names)
 * attempts/&lt;attemptId&gt;/_inprogress/              files still being written
 * tasks/&lt;taskId&gt;/…                              the one committed attempt of each task
 * STAGED                                         written by the job's set-up, touched every minute while the job lives
 * COMMITTING                                     the job's ledger target; present while files move into place
 *                                                (or a later loader's claim on an abandoned staging area)
 * </pre>
 * Task commit renames an attempt to its task; only what sits under {@code tasks/} ever reaches
 * the dataset, so failed, retried and speculative attempts leave nothing behind.
 */
public record JobStaging(DatasetLayout layout, String topic, String jobId) {
    public static final String IN_PROGRESS = "_inprogress";
    public static final String COMMITTING = "COMMITTING";
    public static final String STAGED = "STAGED";

    public Path jobDir() {
        return layout.jobDir(topic, jobId);
    }

    public Path attemptDir(String attemptId) {
        return new Path(new Path(jobDir(), "attempts"), attemptId);
    }

    public Path tasksDir() {
        return new Path(jobDir(), "tasks");
    }

    public Path taskDir(String taskId) {
        return new Path(tasksDir(), taskId);
    }

    /** Proof that this is the staging area the job set up, not one its stragglers made again after a clean-up. */
    public Path stagedToken() {
        return new Path(jobDir(), STAGED);
    }

    public Path committingMarker() {
        return new Path(jobDir(), COMMITTING);
    }
}
