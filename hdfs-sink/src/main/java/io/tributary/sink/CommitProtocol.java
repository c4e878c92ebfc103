package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.DurableFiles;
import io.tributary.hadoop.dataset.OffsetLedger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The storage half of a commit, for files already closed and partitions already fenced:
 * record the {@link CommitIntent}, rename every temp file to its final name, advance the shared
 * ledger, drop the intent. {@link #finishInterrupted} completes a commit that a crash cut short,
 * and removes everything else an earlier writer of the partition left in its temp directory.
 * Every step is idempotent. Not thread-safe (one per poll thread).
 */
final class CommitProtocol {
    private static final Logger log = LoggerFactory.getLogger(CommitProtocol.class);

    private final FileSystem fs;
    private final DatasetLayout layout;
    private final Configuration conf;
    private final Map<String, OffsetLedger> ledgers = new HashMap<>();

    CommitProtocol(FileSystem fs, DatasetLayout layout, Configuration conf) {
        this.fs = fs;
        this.layout = layout;
        this.conf = conf;
    }

    /** Makes the intents' files visible and moves the ledger; on failure the intents stay for recovery. */
    void publish(Map<TopicPartition, CommitIntent> intents) throws IOException {
        for (Map.Entry<TopicPartition, CommitIntent> e : intents.entrySet()) {
            writeIntent(e.getKey(), e.getValue());
        }
        for (CommitIntent intent : intents.values()) {
            rename(intent);
        }
        Map<String, Map<Integer, Long>> byTopic = new TreeMap<>();
        intents.forEach((tp, intent) ->
            byTopic.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(tp.partition(), intent.nextOffset()));
        for (Map.Entry<String, Map<Integer, Long>> e : byTopic.entrySet()) {
            ledger(e.getKey()).advance(e.getValue());
        }
        for (TopicPartition tp : intents.keySet()) {
            fs.delete(intentFile(tp), false);
        }
    }

    /**
     * Finishes the commit of {@code tp} that a crash interrupted, if any, then deletes the temp
     * files of earlier incarnations.
     *
     * @return the intent that was finished, if there was one
     */
    Optional<CommitIntent> finishInterrupted(TopicPartition tp) throws IOException {
        Optional<CommitIntent> intent = readIntent(tp);
        if (intent.isPresent()) {
            log.warn("finishing the commit of {} that an earlier writer left half done: {} file(s), ledger to {}",
                tp, intent.get().renames().size(), intent.get().nextOffset());
            rename(intent.get());
            OffsetLedger ledger = ledger(tp.topic());
            if (ledger.read().nextOffset(tp.partition()).orElse(0) < intent.get().nextOffset()) {
                ledger.advance(Map.of(tp.partition(), intent.get().nextOffset()));
            }
        }
        fs.delete(layout.tempDir(tp.topic(), tp.partition()), true);
        return intent;
    }

    OffsetLedger ledger(String topic) throws IOException {
        OffsetLedger ledger = ledgers.get(topic);
        if (ledger == null) {
            ledger = OffsetLedger.open(layout, topic, conf);
            ledgers.put(topic, ledger);
        }
        return ledger;
    }

    // Rewritten in place, but complete only with its end line: a torn intent reads as none, and
    // nothing is renamed before this returns.
    private void writeIntent(TopicPartition tp, CommitIntent intent) throws IOException {
        DurableFiles.write(fs, intentFile(tp), intent.encode().getBytes(StandardCharsets.UTF_8), true);
        DurableFiles.syncDirectory(fs, intentFile(tp).getParent());
    }

    private Optional<CommitIntent> readIntent(TopicPartition tp) throws IOException {
        try (FSDataInputStream in = fs.open(intentFile(tp))) {
            return CommitIntent.decode(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (FileNotFoundException none) {
            return Optional.empty();
        }
    }

    // Idempotent: a file already at its target (renamed before a crash) is left alone. The renames
    // are durable when this returns, before the ledger names their offsets.
    private void rename(CommitIntent intent) throws IOException {
        Set<Path> directories = new LinkedHashSet<>();
        for (CommitIntent.Rename r : intent.renames()) {
            directories.add(r.temp().getParent());
            directories.add(r.target().getParent());
            if (fs.exists(r.temp())) {
                fs.mkdirs(r.target().getParent());
                if (!fs.rename(r.temp(), r.target())) {
                    throw new IOException("could not rename " + r.temp() + " to " + r.target()
                        + (fs.exists(r.target()) ? ": the target exists" : ""));
                }
            } else if (!fs.exists(r.target())) {
                throw new IOException("commit intent names " + r.temp() + " but neither it nor " + r.target() + " exists");
            }
        }
        for (Path directory : directories) {
            if (fs.exists(directory)) {
                DurableFiles.syncDirectory(fs, directory);
            }
        }
    }

    private Path intentFile(TopicPartition tp) {
        return new Path(layout.tempDir(tp.topic(), tp.partition()), CommitIntent.FILE_NAME);
    }
}
