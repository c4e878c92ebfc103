package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.TopicPartition;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The sink's {@link CommitIntent}s in the partitions' temp directories
 * ({@code _tributary/tmp/<topic>/<partition>/commit.intent}): reading one, asking the ledger
 * whether its advance happened, and renaming its files. The sink finishes or drops its own
 * after a crash; a loader that takes over from a sink killed after its ledger advance (and
 * maybe never started again) finishes those whose advance happened, or their records, counted
 * in the ledger, would never be visible.
 */
public final class SinkIntents {
    private final FileSystem fs;
    private final DatasetLayout layout;

    public SinkIntents(FileSystem fs, DatasetLayout layout) {
        this.fs = fs;
        this.layout = layout;
    }

    public Path file(TopicPartition tp) {
        return new Path(layout.tempDir(tp.topic(), tp.partition()), CommitIntent.FILE_NAME);
    }

    /** The intent of {@code tp}; empty if there is none or it is torn (its commit never reached the ledger). */
    public Optional<CommitIntent> read(TopicPartition tp) throws IOException {
        try (FSDataInputStream in = fs.open(file(tp))) {
            return CommitIntent.decode(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (FileNotFoundException none) {
            return Optional.empty();
        }
    }

    /** Whether the ledger advance of {@code intent}, the commit of {@code tp}, happened (see {@link OffsetLedger#isCommitted}). */
    public static boolean isCommitted(OffsetLedger ledger, TopicPartition tp, CommitIntent intent) throws IOException {
        Map<Integer, Long> read = new TreeMap<>();
        intent.read().ifPresent(o -> read.put(tp.partition(), o));
        return ledger.isCommitted(intent.writer(), intent.basisVersion(), read, Map.of(tp.partition(), intent.nextOffset()));
    }

    /**
     * Renames each file of a commit whose ledger advance happened to its final name, as
     * {@code writer} ("sink" or "loader", for {@link CommitPoint}). Idempotent: a file already at
     * its target (renamed before a crash, or by another writer finishing the same commit) is left
     * alone. The renames are durable when this returns.
     *
     * @throws IOException if a file is neither at its temp name nor at its target, or another file is in the way
     */
    public void rename(List<CommitIntent.Rename> renames, String writer) throws IOException {
        Set<Path> directories = new LinkedHashSet<>();
        int renamed = 0;
        for (CommitIntent.Rename r : renames) {
            directories.add(r.temp().getParent());
            directories.add(r.target().getParent());
            if (fs.exists(r.temp())) {
                fs.mkdirs(r.target().getParent());
                if (!fs.rename(r.temp(), r.target()) && (fs.exists(r.temp()) || !fs.exists(r.target()))) {
                    throw new IOException("could not rename " + r.temp() + " to " + r.target()
                        + (fs.exists(r.target()) ? ": the target exists" : ""));
                }
            } else if (!fs.exists(r.target())) {
                throw new IOException("commit intent names " + r.temp() + " but neither it nor " + r.target() + " exists");
            }
            if (++renamed == 1 && renames.size() > 1) {
                CommitPoint.BETWEEN_RENAMES.reached(writer);
            }
        }
        for (Path directory : directories) {
            if (fs.exists(directory)) {
                DurableFiles.syncDirectory(fs, directory);
            }
        }
    }

    /**
     * For a writer taking over {@code topic} from a sink (a loader): renames the files still under
     * their temp names of every sink commit whose ledger advance happened. Touches nothing else: a
     * sink may still own a partition, its open files and its next intent in the same directory;
     * the intent stays for the sink's own recovery, which finds its files renamed.
     *
     * @return the partitions whose commit this finished
     */
    public List<TopicPartition> finishCommitted(String topic, OffsetLedger ledger, String writer) throws IOException {
        FileStatus[] partitions;
        try {
            partitions = fs.listStatus(layout.tempDir(topic));
        } catch (FileNotFoundException none) {
            return List.of();
        }
        List<TopicPartition> finished = new ArrayList<>();
        for (FileStatus dir : partitions) {
            int partition;
            try {
                partition = Integer.parseInt(dir.getPath().getName());
            } catch (NumberFormatException notAPartition) {
                continue;
            }
            TopicPartition tp = new TopicPartition(topic, partition);
            Optional<CommitIntent> intent = read(tp);
            if (intent.isEmpty()) {
                continue;
            }
            List<CommitIntent.Rename> pending = new ArrayList<>();
            for (CommitIntent.Rename r : intent.get().renames()) {
                if (fs.exists(r.temp())) {
                    pending.add(r);
                }
            }
            if (!pending.isEmpty() && isCommitted(ledger, tp, intent.get())) {
                rename(pending, writer);
                finished.add(tp);
            }
        }
        return finished;
    }
}
