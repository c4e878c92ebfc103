package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.DurableFiles;
import io.tributary.hadoop.dataset.LedgerState;
import io.tributary.hadoop.dataset.OffsetLedger;
import io.tributary.hadoop.input.LoadPlan;
import io.tributary.hadoop.input.OffsetRange;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The job commit of one loader job, in an order that survives a crash at any step:
 * <ol>
 *   <li>check the ledger has not moved past the plan's starts since planning (another writer
 *       loaded those offsets: committing would duplicate them) — nothing changed yet if not;</li>
 *   <li>write the {@code COMMITTING} marker with the ledger target, complete only with its
 *       {@code end} line (a torn marker reads as none: nothing was renamed yet);</li>
 *   <li>rename every committed task file to its final place in the dataset;</li>
 *   <li>advance the ledger;</li>
 *   <li>delete the staging directory.</li>
 * </ol>
 * Steps 3–5 are idempotent: {@link #finish()} redoes them from the marker, and
 * {@link #recoverPending} does so for a commit that a crash interrupted. Durable before recorded:
 * the task files are synced when their writers close, the task directories before the marker
 * (which names no files, so a lost entry would be a lost file), and the renames before the ledger.
 */
final class JobCommit {
    private static final Logger log = LoggerFactory.getLogger(JobCommit.class);
    private static final String MARKER_END = "end";

    private final FileSystem fs;
    private final JobStaging staging;
    private final OffsetLedger ledger;

    private JobCommit(FileSystem fs, JobStaging staging, OffsetLedger ledger) {
        this.fs = fs;
        this.staging = staging;
        this.ledger = ledger;
    }

    static JobCommit open(JobStaging staging, Configuration conf) throws IOException {
        return new JobCommit(staging.layout().root().getFileSystem(conf), staging,
            OffsetLedger.open(staging.layout(), staging.topic(), conf));
    }

    /** Finishes every commit of {@code staging.topic()} that a crash interrupted; returns how many. */
    static int recoverPending(DatasetLayout layout, String topic, Configuration conf) throws IOException {
        FileSystem fs = layout.root().getFileSystem(conf);
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
            if (commit.readMarker().isPresent()) {
                log.warn("finishing the interrupted commit of loader job {}", staging.jobId());
                commit.finish();
                recovered++;
            } else {
                log.warn("loader job {} left staging files in {} (still running, or its client died); "
                    + "they are not part of the dataset", staging.jobId(), job.getPath());
            }
        }
        return recovered;
    }

    void commit(LoadPlan plan) throws IOException {
        Map<Integer, Long> target = ledgerTarget(plan, ledger.read());
        StringBuilder marker = new StringBuilder();
        target.forEach((p, o) -> marker.append(p).append('=').append(o).append('\n'));
        marker.append(MARKER_END).append('\n');
        syncDirectoriesUnder(staging.tasksDir());
        DurableFiles.write(fs, staging.committingMarker(), marker.toString().getBytes(StandardCharsets.UTF_8), true);
        DurableFiles.syncDirectory(fs, staging.committingMarker().getParent());
        finish();
    }

    /** Moves the remaining files into place, advances the ledger to the marker's target and cleans up. */
    void finish() throws IOException {
        Map<Integer, Long> target = readMarker().orElseThrow(
            () -> new IOException("the commit marker " + staging.committingMarker() + " is missing or incomplete"));
        int moved = moveCommittedFiles();
        LedgerState current = ledger.read();
        Map<Integer, Long> forward = new TreeMap<>();
        target.forEach((p, o) -> {
            OptionalLong now = current.nextOffset(p);
            if (now.isEmpty() || now.getAsLong() < o) {
                forward.put(p, o);
            }
        });
        LedgerState state = ledger.advance(forward);
        fs.delete(staging.jobDir(), true);
        log.info("job {} committed {} files; ledger of {} now {}", staging.jobId(), moved, staging.topic(), state.nextOffsets());
    }

    /**
     * Where the ledger goes once {@code plan} is committed.
     *
     * @throws IOException if the ledger is already past a planned start: those offsets are in the dataset
     */
    static Map<Integer, Long> ledgerTarget(LoadPlan plan, LedgerState current) throws IOException {
        Map<Integer, Long> target = new TreeMap<>();
        for (OffsetRange r : plan.ranges()) {
            OptionalLong now = current.nextOffset(r.partition());
            if (now.isPresent() && now.getAsLong() > r.start()) {
                if (r.isEmpty()) {
                    continue; // nothing loaded here; never move the ledger back
                }
                throw new IOException("the ledger of " + plan.topic() + "-" + r.partition() + " is at " + now.getAsLong()
                    + ", past the start " + r.start() + " of this load: offsets [" + r.start() + ", " + now.getAsLong()
                    + ") are already in the dataset (another writer loaded them, or the start position is below the ledger); "
                    + "loading them again would duplicate them, so nothing was committed");
            }
            target.put(r.partition(), r.end());
        }
        return target;
    }

    private int moveCommittedFiles() throws IOException {
        if (!fs.exists(staging.tasksDir())) {
            return 0;
        }
        URI tasks = fs.makeQualified(staging.tasksDir()).toUri();
        Path root = staging.layout().root();
        List<Path> files = new ArrayList<>(); // listed in full first: renaming while listing is not safe on every filesystem
        RemoteIterator<LocatedFileStatus> listing = fs.listFiles(staging.tasksDir(), true);
        while (listing.hasNext()) {
            files.add(listing.next().getPath());
        }
        Set<Path> directories = new LinkedHashSet<>();
        for (Path file : files) {
            URI relativeToTasks = tasks.relativize(file.toUri());
            String relative = relativeToTasks.getPath();
            String withinTask = relative.substring(relative.indexOf('/') + 1); // drop the task id
            Path source = new Path(staging.tasksDir(), relative);
            Path target = new Path(root, withinTask);
            if (fs.exists(target)) {
                throw new IOException("refusing to overwrite " + target + " with " + source + ": a data file of that name already exists");
            }
            fs.mkdirs(target.getParent());
            if (!fs.rename(source, target)) {
                throw new IOException("could not rename " + source + " to " + target);
            }
            directories.add(target.getParent());
        }
        for (Path directory : directories) {
            DurableFiles.syncDirectory(fs, directory);
        }
        return files.size();
    }

    /** The marker's ledger target; empty if there is no marker or it lacks its end line (torn by a crash). */
    private Optional<Map<Integer, Long>> readMarker() throws IOException {
        String text;
        try (FSDataInputStream in = fs.open(staging.committingMarker())) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (FileNotFoundException none) {
            return Optional.empty();
        }
        List<String> lines = text.lines().toList();
        if (lines.isEmpty() || !lines.get(lines.size() - 1).equals(MARKER_END)) {
            return Optional.empty();
        }
        Map<Integer, Long> target = new TreeMap<>();
        for (String line : lines.subList(0, lines.size() - 1)) {
            String[] kv = line.split("=");
            target.put(Integer.parseInt(kv[0]), Long.parseLong(kv[1]));
        }
        return Optional.of(target);
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
