package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.CommitMarker;
import io.tributary.hadoop.dataset.CommitPoint;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.DurableFiles;
import io.tributary.hadoop.dataset.JobStaging;
import io.tributary.hadoop.dataset.LedgerCommit;
import io.tributary.hadoop.dataset.LedgerConflictException;
import io.tributary.hadoop.dataset.LedgerState;
import io.tributary.hadoop.dataset.LedgerVersion;
import io.tributary.hadoop.dataset.OffsetLedger;
import io.tributary.hadoop.dataset.SinkIntents;
import io.tributary.hadoop.dataset.StagedLoads;
import io.tributary.hadoop.input.LoadPlan;
import io.tributary.hadoop.input.OffsetRange;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The job commit of one loader job, in an order that survives a crash at any step:
 * <ol>
 *   <li>read the ledger and check it has not moved past the plan's starts since planning
 *       (another writer loaded those offsets: committing would duplicate them);</li>
 *   <li>write the {@code COMMITTING} marker ({@link CommitMarker}: the ledger entries read and
 *       the ledger target), complete only with its {@code end} line;</li>
 *   <li>advance the ledger by compare-and-set against the entries read: this is the commit
 *       point. If a sink or another loader advanced any of the partitions in between, the job
 *       refuses, naming them, and deletes its staging area: none of its files was visible;</li>
 *   <li>rename every committed task file to its final place in the dataset;</li>
 *   <li>delete the staging directory.</li>
 * </ol>
 * A crash before step 3 leaves hidden staging files only, which a later {@link #recoverPending}
 * deletes once they show no sign of life; after it, {@link #recoverPending}
 * (or the job's own abort, or a sink that takes over the topic, see {@link StagedLoads}) finishes
 * steps 4–5, which are idempotent. Whether step 3 happened is
 * asked of the ledger ({@link OffsetLedger#isCommitted}). Durable before recorded: the task
 * files are synced when their writers close, the task directories before the marker (which
 * names no files, so a lost entry would be a lost file), the marker before the ledger, and the
 * renames before the staging area goes.
 */
final class JobCommit {
    private static final Logger log = LoggerFactory.getLogger(JobCommit.class);
    /** How the loader names itself to {@link CommitPoint}. */
    static final String WRITER = "loader";
    /** The content of a {@code COMMITTING} file that claims an abandoned staging area: not a marker (no end line). */
    private static final String CLAIM = "claimed by a later loader for deletion: abandoned\n";

    private final FileSystem fs;
    private final JobStaging staging;
    private final OffsetLedger ledger;
    private final StagedLoads loads;
    /** A staging area without a commit begun and untouched this long belongs to a loader that died (see {@link StagingHeartbeat}). */
    private final Duration abandonedAfter;

    private JobCommit(FileSystem fs, JobStaging staging, OffsetLedger ledger, Duration abandonedAfter) {
        this.fs = fs;
        this.staging = staging;
        this.ledger = ledger;
        this.loads = new StagedLoads(fs, ledger);
        this.abandonedAfter = abandonedAfter;
    }

    static JobCommit open(JobStaging staging, Configuration conf) throws IOException {
        return new JobCommit(staging.layout().root().getFileSystem(conf), staging,
            OffsetLedger.open(staging.layout(), staging.topic(), conf), new LoaderConfig(conf).stagingAbandonedAfter());
    }

    /**
     * Finishes every commit of {@code topic} whose ledger advance happened before a crash (a
     * sink's as well: see {@link SinkIntents#finishCommitted}), and deletes the staging areas of
     * commits that lost their compare-and-set; returns how many loader commits it finished. A
     * commit still before its ledger advance may be running: it is left alone.
     */
    static int recoverPending(DatasetLayout layout, String topic, Configuration conf) throws IOException {
        FileSystem fs = layout.root().getFileSystem(conf);
        for (TopicPartition tp : new SinkIntents(fs, layout).finishCommitted(topic, OffsetLedger.open(layout, topic, conf), WRITER)) {
            log.warn("finished the commit of {} that a sink left half done after its ledger advance (its records are "
                + "in the ledger; they are visible now)", tp);
        }
        FileStatus[] jobs;
        try {
            jobs = fs.listStatus(layout.jobsDir(topic));
        } catch (FileNotFoundException none) {
            return 0;
        }
        int recovered = 0;
        for (FileStatus job : jobs) {
            JobStaging staging = new JobStaging(layout, topic, job.getPath().getName());
            JobCommit commit = open(staging, conf);
            Optional<CommitMarker> marker = commit.readMarker();
            if (marker.isEmpty()) {
                commit.removeIfAbandoned();
                continue;
            }
            // Moved first, committed second: a job still running can advance between the two reads, and a
            // partition already moved when the second read says "not committed" can never be its to advance.
            boolean moved = commit.ledgerMovedUnder(marker.get());
            if (commit.isCommitted(marker.get())) {
                log.warn("finishing the interrupted commit of loader job {}", staging.jobId());
                commit.publishFiles(marker.get());
                recovered++;
            } else if (moved) {
                log.warn("deleting the staging files of loader job {}: another writer advanced the ledger before it "
                    + "could commit, so they would duplicate records", staging.jobId());
                fs.delete(staging.jobDir(), true);
                commit.ledger.release(marker.get().writer());
            } else {
                log.warn("loader job {} began its commit in {} and may still be running; its files are not part of the "
                    + "dataset until it commits, and are deleted once another writer loads its partitions", staging.jobId(),
                    job.getPath());
            }
        }
        return recovered;
    }

    /**
     * Deletes the staging area of a job that never began its commit and shows no sign of life
     * (its {@link StagingHeartbeat} stopped {@link LoaderConfig#STAGING_ABANDONED_AFTER_MS} ago): a loader killed
     * before its intent. Safe against a job that is only slow: the claim is a {@code COMMITTING}
     * file created only if absent, so either the job's own marker came first (then nothing is
     * deleted) or its commit finds the claim, or the staging area without its {@code STAGED}
     * token, and refuses with nothing committed.
     */
    private void removeIfAbandoned() throws IOException {
        if (!fs.exists(staging.committingMarker())) { // present but no marker: already claimed
            long quietMs = System.currentTimeMillis() - newestModification(staging.jobDir());
            if (quietMs < abandonedAfter.toMillis()) {
                log.warn("loader job {} has staging files in {} and is still running (or died less than {} ago); they are "
                    + "not part of the dataset", staging.jobId(), staging.jobDir(), abandonedAfter);
                return;
            }
            if (!DurableFiles.createOnce(fs, staging.committingMarker(), CLAIM.getBytes(StandardCharsets.UTF_8))) {
                return; // it began its commit just now: alive after all
            }
        }
        log.warn("deleting the staging area of loader job {}: it never began its commit and showed no sign of life for {} "
            + "(killed before its commit); none of its files was part of the dataset", staging.jobId(), abandonedAfter);
        fs.delete(staging.stagedToken(), false); // first: a straggler's commit after this finds no token and refuses
        fs.delete(staging.jobDir(), true);
    }

    private long newestModification(Path dir) throws IOException {
        long newest = fs.getFileStatus(dir).getModificationTime();
        for (FileStatus child : fs.listStatus(dir)) {
            newest = Math.max(newest, child.isDirectory() ? newestModification(child.getPath()) : child.getModificationTime());
        }
        return newest;
    }

    void commit(LoadPlan plan) throws IOException {
        CommitPoint.AFTER_TEMP_FILES.reached(WRITER);
        LedgerVersion basis = ledger.readVersion();
        Map<Integer, Long> target = ledgerTarget(plan, basis.state());
        CommitMarker marker = new CommitMarker(staging.jobId(), basis.number(), basis.entriesOf(target.keySet()), target);
        syncDirectoriesUnder(staging.tasksDir());
        writeMarker(marker);
        CommitPoint.AFTER_INTENT.reached(WRITER);
        try {
            ledger.advance(marker.read(), marker.next(), new LedgerCommit(marker.writer(), List.of(staging.committingMarker())));
        } catch (LedgerConflictException e) {
            fs.delete(staging.jobDir(), true);
            throw new IOException(e.getMessage() + ": this load's offsets of those partitions are already in the dataset; "
                + "committing would duplicate them, so nothing was committed", e);
        }
        CommitPoint.AFTER_LEDGER.reached(WRITER);
        publishFiles(marker);
    }

    // Created only if absent, then checked against a clean-up: see removeIfAbandoned.
    private void writeMarker(CommitMarker marker) throws IOException {
        if (!DurableFiles.createOnce(fs, staging.committingMarker(), marker.encode().getBytes(StandardCharsets.UTF_8))) {
            throw new IOException("loader job " + staging.jobId() + " cannot commit: " + (readMarker().isPresent()
                ? "an earlier attempt of it began its commit; the next loader run finishes or drops that one"
                : "a later loader found no sign of life of it (for its " + LoaderConfig.STAGING_ABANDONED_AFTER_MS
                    + ") and claimed its staging area to delete it")
                + "; nothing was committed, run the load again");
        }
        if (!fs.exists(staging.stagedToken())) {
            fs.delete(staging.jobDir(), true); // what stragglers wrote again after the clean-up
            throw new IOException("loader job " + staging.jobId() + " cannot commit: a later loader found no sign of life of it (for its "
                + LoaderConfig.STAGING_ABANDONED_AFTER_MS + ") and deleted its staging area; nothing was committed, run the load again");
        }
    }

    /**
     * For a job whose commit failed: finishes it if its ledger advance happened, otherwise
     * deletes its staging area, leaving the dataset as it was.
     *
     * @return whether the job's load is in the dataset
     */
    boolean finishOrDiscard() throws IOException {
        Optional<CommitMarker> marker = readMarker();
        if (marker.isPresent() && isCommitted(marker.get())) {
            publishFiles(marker.get());
            return true;
        }
        fs.delete(staging.jobDir(), true);
        if (marker.isPresent()) {
            ledger.release(marker.get().writer());
        }
        return false;
    }

    /**
     * Where the ledger goes once {@code plan} is committed.
     *
     * @throws IOException naming every partition whose ledger is already past a planned start:
     *     those offsets are in the dataset
     */
    static Map<Integer, Long> ledgerTarget(LoadPlan plan, LedgerState current) throws IOException {
        Map<Integer, Long> target = new TreeMap<>();
        List<String> loaded = new ArrayList<>();
        for (OffsetRange r : plan.ranges()) {
            OptionalLong now = current.nextOffset(r.partition());
            if (now.isPresent() && now.getAsLong() > r.start()) {
                if (!r.isEmpty()) {
                    loaded.add(plan.topic() + "-" + r.partition() + " [" + r.start() + ", " + now.getAsLong() + ")");
                }
                continue; // nothing loaded here: never move the ledger back
            }
            target.put(r.partition(), r.end());
        }
        if (!loaded.isEmpty()) {
            throw new IOException("the ledger is past the start of this load: offsets " + String.join(", ", loaded)
                + " are already in the dataset (another writer loaded them, or the start position is below the ledger); "
                + "loading them again would duplicate them, so nothing was committed");
        }
        return target;
    }

    private boolean isCommitted(CommitMarker marker) throws IOException {
        return loads.isCommitted(marker);
    }

    /** Whether another writer moved a partition of the marker since the job read the ledger: it can never commit. */
    private boolean ledgerMovedUnder(CommitMarker marker) throws IOException {
        return !ledger.read().movedSince(marker.read(), marker.next().keySet()).isEmpty();
    }

    /** Moves the committed files into place and deletes the staging area: the ledger already counts them. */
    private void publishFiles(CommitMarker marker) throws IOException {
        int moved = loads.publish(staging, marker, WRITER);
        log.info("job {} committed {} files; ledger of {} now at {}", staging.jobId(), moved, staging.topic(), marker.next());
    }

    /** The marker; empty if there is none or it lacks its end line (torn by a crash). */
    private Optional<CommitMarker> readMarker() throws IOException {
        return loads.marker(staging);
    }

    // The task commits renamed attempt files into these directories; the marker names none of them.
    private void syncDirectoriesUnder(Path dir) throws IOException {
        if (!fs.exists(dir)) {
            return;
        }
        DurableFiles.syncDirectory(fs, dir);
        for (FileStatus child : fs.listStatus(dir)) {
            if (child.isDirectory()) {
                syncDirectoriesUnder(child.getPath());
            }
        }
    }
}
