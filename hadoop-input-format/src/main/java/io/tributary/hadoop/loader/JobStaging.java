package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetLayout;
import org.apache.hadoop.fs.Path;

/**
 * The staging area of one loader job, {@code <root>/_tributary/jobs/<topic>/<jobId>/}:
 * <pre>
 * attempts/&lt;attemptId&gt;/&lt;topic&gt;/dt=…/hr=…/&lt;file&gt;   a task attempt's output (final relative names)
 * attempts/&lt;attemptId&gt;/_inprogress/              files still being written
 * tasks/&lt;taskId&gt;/…                              the one committed attempt of each task
 * COMMITTING                                     the job's ledger target; present while files move into place
 * </pre>
 * Task commit renames an attempt to its task; only what sits under {@code tasks/} ever reaches
 * the dataset, so failed, retried and speculative attempts leave nothing behind.
 */
record JobStaging(DatasetLayout layout, String topic, String jobId) {
    static final String IN_PROGRESS = "_inprogress";
    static final String COMMITTING = "COMMITTING";

    Path jobDir() {
        return layout.jobDir(topic, jobId);
    }

    Path attemptDir(String attemptId) {
        return new Path(new Path(jobDir(), "attempts"), attemptId);
    }

    Path tasksDir() {
        return new Path(jobDir(), "tasks");
    }

    Path taskDir(String taskId) {
        return new Path(tasksDir(), taskId);
    }

    Path committingMarker() {
        return new Path(jobDir(), COMMITTING);
    }
}
