package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.LedgerState;
import io.tributary.hadoop.dataset.OffsetLedger;
import io.tributary.hadoop.input.LoadPlan;
import io.tributary.hadoop.input.OffsetRange;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
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
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The job commit of one loader job, in an order that survives a crash at any step:
 * <ol>
 *   <li>check the ledger has not moved past the plan's starts since planning (another writer
 *       loaded those offsets: committing would duplicate them) — nothing changed yet if not;</li>
 *   <li>write the {@code COMMITTING} marker with the ledger target;</li>
 *   <li>rename every committed task file to its final place in the dataset;</li>
 *   <li>advance the ledger;</li>
 *   <li>delete the staging directory.</li>
 * </ol>
 * Steps 3–5 are idempotent: {@link #finish()} redoes them from the marker, and
 * {@link #recoverPending} does so for a commit that a crash interrupted.
 */
final class JobCommit {
    private static final Logger log = LoggerFactory.getLogger(JobCommit.class);

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
            if (fs.exists(staging.committingMarker())) {
                log.warn("finishing the interrupted commit of loader job {}", staging.jobId());
                open(staging, conf).finish();
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
        try (FSDataOutputStream out = fs.create(staging.committingMarker(), true)) {
            out.write(marker.toString().getBytes(StandardCharsets.UTF_8));
            out.hsync();
        }
        finish();
    }

    /** Moves the remaining files into place, advances the ledger to the marker's target and cleans up. */
    void finish() throws IOException {
        Map<Integer, Long> target = readMarker();
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
        }
        return files.size();
    }

    private Map<Integer, Long> readMarker() throws IOException {
        Map<Integer, Long> target = new TreeMap<>();
        String text;
        try (FSDataInputStream in = fs.open(staging.committingMarker())) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                String[] kv = line.split("=");
                target.put(Integer.parseInt(kv[0]), Long.parseLong(kv[1]));
            }
        }
        return target;
    }
}
