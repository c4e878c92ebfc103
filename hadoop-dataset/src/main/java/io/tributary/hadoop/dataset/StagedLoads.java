package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The loader jobs' staging areas of one topic ({@link JobStaging}): reading a job's
 * {@link CommitMarker}, asking the ledger whether its advance happened, and publishing its
 * files. The loader finishes its own commits and those of earlier loader runs; a sink that
 * takes over from a loader killed after its ledger advance (and maybe never run again)
 * finishes those too, or their records, counted in the ledger, would never be visible.
 */
public final class StagedLoads {
    private final FileSystem fs;
    private final OffsetLedger ledger;

    public StagedLoads(FileSystem fs, OffsetLedger ledger) {
        this.fs = fs;
        this.ledger = ledger;
    }

    /** The job's marker; empty if there is none or it lacks its end line (torn by a crash, or a clean-up's claim). */
    public Optional<CommitMarker> marker(JobStaging staging) throws IOException {
        try (FSDataInputStream in = fs.open(staging.committingMarker())) {
            return CommitMarker.decode(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (FileNotFoundException none) {
            return Optional.empty();
        }
    }

    /** Whether the ledger advance of {@code marker} happened (see {@link OffsetLedger#isCommitted}). */
    public boolean isCommitted(CommitMarker marker) throws IOException {
        return ledger.isCommitted(marker.writer(), marker.basisVersion(), marker.read(), marker.next());
    }

    /**
     * For a writer taking over {@code topic} from a loader (a sink): publishes every job whose
     * ledger advance happened. Jobs before their advance are left alone (they may still be
     * running; the next loader run decides about them).
     *
     * @return the ids of the jobs this published
     */
    public List<String> publishCommitted(DatasetLayout layout, String topic, String writer) throws IOException {
        FileStatus[] jobs;
        try {
            jobs = fs.listStatus(layout.jobsDir(topic));
        } catch (FileNotFoundException none) {
            return List.of();
        }
        List<String> published = new ArrayList<>();
        for (FileStatus job : jobs) {
            JobStaging staging = new JobStaging(layout, topic, job.getPath().getName());
            Optional<CommitMarker> marker = marker(staging);
            if (marker.isPresent() && isCommitted(marker.get())) {
                publish(staging, marker.get(), writer);
                published.add(staging.jobId());
            }
        }
        return published;
    }

    /**
     * Moves the committed files of a job whose ledger advance happened into place, as
     * {@code writer} ("loader" or "sink", for {@link CommitPoint}), deletes its staging area and
     * unpins its commit. Several writers may publish one job at once (a slow loader past its
     * advance, a later loader's recovery, a sink): see {@link #moveIntoPlace}.
     *
     * @return how many files it moved
     */
    public int publish(JobStaging staging, CommitMarker marker, String writer) throws IOException {
        int moved = moveCommittedFiles(staging, writer);
        CommitPoint.AFTER_RENAMES.reached(writer);
        fs.delete(staging.jobDir(), true);
        ledger.release(marker.writer());
        return moved;
    }

    private int moveCommittedFiles(JobStaging staging, String writer) throws IOException {
        if (!fs.exists(staging.tasksDir())) {
            return 0;
        }
        URI tasks = fs.makeQualified(staging.tasksDir()).toUri();
        Path root = staging.layout().root();
        List<LocatedFileStatus> files = new ArrayList<>(); // listed in full first: renaming while listing is not safe on every filesystem
        RemoteIterator<LocatedFileStatus> listing = fs.listFiles(staging.tasksDir(), true);
        while (listing.hasNext()) {
            files.add(listing.next());
        }
        Set<Path> directories = new LinkedHashSet<>();
        int renamed = 0;
        for (LocatedFileStatus file : files) {
            String relative = tasks.relativize(file.getPath().toUri()).getPath();
            String withinTask = relative.substring(relative.indexOf('/') + 1); // drop the task id
            Path source = new Path(staging.tasksDir(), relative);
            Path target = new Path(root, withinTask);
            moveIntoPlace(file, source, target);
            directories.add(target.getParent());
            if (++renamed == 1 && files.size() > 1) {
                CommitPoint.BETWEEN_RENAMES.reached(writer);
            }
        }
        for (Path directory : directories) {
            DurableFiles.syncDirectory(fs, directory);
        }
        return files.size();
    }

    /**
     * Renames one committed file, listed as {@code listed}, to its place. A concurrent publication
     * of this same commit (a later loader's or a sink's, while this one is slow) may have moved it
     * already: that is recognised by the source being gone and the target being that file (a
     * rename keeps length and modification time). Anything else in the way is a failure, never a skip.
     */
    private void moveIntoPlace(FileStatus listed, Path source, Path target) throws IOException {
        Optional<FileStatus> existing = status(target);
        if (existing.isPresent()) {
            if (movedHereAlready(listed, source, existing.get())) {
                return;
            }
            throw new IOException("refusing to overwrite " + target + " with " + source + ": a data file of that name already exists");
        }
        fs.mkdirs(target.getParent());
        boolean renamed;
        try {
            renamed = fs.rename(source, target);
        } catch (FileNotFoundException sourceGone) { // the local filesystem's copy fallback, on a source moved meanwhile
            renamed = false;
        }
        if (!renamed) {
            Optional<FileStatus> now = status(target);
            if (now.isEmpty() || !movedHereAlready(listed, source, now.get())) {
                throw new IOException("could not rename " + source + " to " + target);
            }
        }
    }

    private boolean movedHereAlready(FileStatus listed, Path source, FileStatus target) throws IOException {
        return !fs.exists(source) && target.getLen() == listed.getLen() && target.getModificationTime() == listed.getModificationTime();
    }

    private Optional<FileStatus> status(Path path) throws IOException {
        try {
            return Optional.of(fs.getFileStatus(path));
        } catch (FileNotFoundException none) {
            return Optional.empty();
        }
    }
}
