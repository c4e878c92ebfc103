package io.tributary.sink;

import io.tributary.hadoop.dataset.CommitIntent;
import io.tributary.hadoop.dataset.CommitPoint;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.DurableFiles;
import io.tributary.hadoop.dataset.LedgerCommit;
import io.tributary.hadoop.dataset.LedgerConflictException;
import io.tributary.hadoop.dataset.LedgerState;
import io.tributary.hadoop.dataset.LedgerVersion;
import io.tributary.hadoop.dataset.OffsetLedger;
import io.tributary.hadoop.dataset.SinkIntents;
import io.tributary.hadoop.dataset.StagedLoads;
import io.tributary.hadoop.dataset.TopicIdentity;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The storage half of a commit, for files already closed and partitions already fenced:
 * record the {@link CommitIntent}, advance the shared ledger by compare-and-set (the commit
 * point), rename every temp file to its final name, drop the intent. A partition whose ledger
 * entry another writer (a loader, or a sink of another group) moved since this sink read it
 * loses: its intent and temp files are deleted, none of them was visible, and the sink re-plans
 * from the ledger. {@link #finishInterrupted} completes a commit that a crash cut short after
 * its ledger advance, drops one cut short before it, and removes everything else an earlier
 * writer of the partition left in its temp directory; {@link #finishInterruptedLoads} completes
 * a loader's. Every step is idempotent. Not
 * thread-safe (one per poll thread).
 */
final class CommitProtocol {
    private static final Logger log = LoggerFactory.getLogger(CommitProtocol.class);
    /** How the sink names itself to {@link CommitPoint}. */
    static final String WRITER = "sink";

    private final FileSystem fs;
    private final DatasetLayout layout;
    private final Configuration conf;
    private final SinkIntents intentFiles;
    private final Map<String, OffsetLedger> ledgers = new HashMap<>();

    CommitProtocol(FileSystem fs, DatasetLayout layout, Configuration conf) {
        this.fs = fs;
        this.layout = layout;
        this.conf = conf;
        this.intentFiles = new SinkIntents(fs, layout);
    }

    /** What a {@link #publish} did: the ledger version each committed partition is now at, and the partitions that lost. */
    record Outcome(Map<TopicPartition, Long> committed, Map<TopicPartition, LedgerConflictException.Moved> lost) {
    }

    /**
     * Commits the intents' partitions whose ledger entries are still what the sink read; the
     * others lose (see the class comment). On an I/O failure the intents stay for recovery.
     */
    Outcome publish(Map<TopicPartition, CommitIntent> planned) throws IOException {
        CommitPoint.AFTER_TEMP_FILES.reached(WRITER);
        String writer = UUID.randomUUID().toString();
        Map<TopicPartition, CommitIntent> intents = new LinkedHashMap<>();
        planned.forEach((tp, intent) -> intents.put(tp, intent.by(writer)));
        for (Map.Entry<TopicPartition, CommitIntent> e : intents.entrySet()) {
            writeIntent(e.getKey(), e.getValue());
        }
        CommitPoint.AFTER_INTENT.reached(WRITER);
        Map<TopicPartition, Long> committed = new LinkedHashMap<>();
        Map<TopicPartition, LedgerConflictException.Moved> lost = new LinkedHashMap<>();
        Map<String, List<TopicPartition>> byTopic = new TreeMap<>();
        intents.keySet().forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp));
        for (Map.Entry<String, List<TopicPartition>> e : byTopic.entrySet()) {
            advance(e.getKey(), e.getValue(), intents, writer, committed, lost);
        }
        CommitPoint.AFTER_LEDGER.reached(WRITER);
        List<CommitIntent.Rename> renames = new ArrayList<>();
        committed.keySet().forEach(tp -> renames.addAll(intents.get(tp).renames()));
        intentFiles.rename(renames, WRITER);
        CommitPoint.AFTER_RENAMES.reached(WRITER);
        for (TopicPartition tp : committed.keySet()) {
            fs.delete(intentFile(tp), false);
        }
        for (String topic : byTopic.keySet()) {
            ledger(topic).release(writer); // every intent of this commit is gone: renamed or lost
        }
        return new Outcome(committed, lost);
    }

    /** The bytes of the files a published intent renamed (one metadata call a file). */
    long committedBytes(CommitIntent intent) throws IOException {
        long bytes = 0;
        for (CommitIntent.Rename rename : intent.renames()) {
            bytes += fs.getFileStatus(rename.target()).getLen();
        }
        return bytes;
    }

    // One compare-and-set for the topic's partitions; those another writer moved are dropped and the rest tried again.
    private void advance(String topic, List<TopicPartition> partitions, Map<TopicPartition, CommitIntent> intents, String writer,
                         Map<TopicPartition, Long> committed, Map<TopicPartition, LedgerConflictException.Moved> lost)
            throws IOException {
        List<TopicPartition> remaining = new ArrayList<>(partitions);
        LedgerCommit commit = new LedgerCommit(writer, partitions.stream().map(this::intentFile).toList());
        while (!remaining.isEmpty()) {
            Map<Integer, Long> read = new TreeMap<>();
            Map<Integer, Long> next = new TreeMap<>();
            for (TopicPartition tp : remaining) {
                CommitIntent intent = intents.get(tp);
                intent.read().ifPresent(o -> read.put(tp.partition(), o));
                next.put(tp.partition(), intent.nextOffset());
            }
            try {
                LedgerVersion version = ledger(topic).advance(read, next, commit);
                remaining.forEach(tp -> committed.put(tp, version.number()));
                return;
            } catch (LedgerConflictException conflict) {
                for (Map.Entry<Integer, LedgerConflictException.Moved> m : conflict.moved().entrySet()) {
                    TopicPartition tp = new TopicPartition(topic, m.getKey());
                    fs.delete(layout.tempDir(tp.topic(), tp.partition()), true); // its intent and files: never visible
                    lost.put(tp, m.getValue());
                    remaining.remove(tp);
                }
            }
        }
    }

    /**
     * Finishes the commit of {@code tp} that a crash interrupted, if its ledger advance
     * happened, then deletes the temp files of earlier incarnations.
     *
     * @return the intent that was finished, if there was one
     */
    Optional<CommitIntent> finishInterrupted(TopicPartition tp) throws IOException {
        Optional<CommitIntent> intent = intentFiles.read(tp);
        Optional<CommitIntent> finished = Optional.empty();
        if (intent.isPresent()) {
            CommitIntent i = intent.get();
            if (SinkIntents.isCommitted(ledger(tp.topic()), tp, i)) {
                log.warn("finishing the commit of {} that an earlier writer left half done: {} file(s), ledger at {}",
                    tp, i.renames().size(), i.nextOffset());
                intentFiles.rename(i.renames(), WRITER);
                finished = intent;
            } else {
                log.warn("dropping the commit of {} that an earlier writer left before its ledger advance: {} file(s) up to "
                    + "offset {}; their records are read again", tp, i.renames().size(), i.nextOffset());
            }
        }
        fs.delete(layout.tempDir(tp.topic(), tp.partition()), true);
        if (intent.isPresent()) {
            ledger(tp.topic()).releaseIfResolved(intent.get().writer()); // once its other partitions' intents are gone too
        }
        return finished;
    }

    /**
     * Publishes the files of every loader job of {@code topic} whose ledger advance happened but
     * whose files a crash left in its staging area: a sink taking turns with a loader that was
     * killed in its commit and may never run again.
     */
    void finishInterruptedLoads(String topic) throws IOException {
        for (String job : new StagedLoads(fs, ledger(topic)).publishCommitted(layout, topic, WRITER)) {
            log.warn("finished the commit of loader job {} that a crash left half done after its ledger advance: its files "
                + "of {} are visible now", job, topic);
        }
    }

    /** Checks that the dataset's offsets of {@code topic} are those of the topic with id {@code topicId} (see {@link TopicIdentity}). */
    void checkTopicId(String topic, String topicId, LedgerState ledger) throws IOException {
        TopicIdentity.checkAndRecord(fs, layout, topic, topicId, ledger);
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
    // the ledger does not move before this returns.
    private void writeIntent(TopicPartition tp, CommitIntent intent) throws IOException {
        DurableFiles.write(fs, intentFile(tp), intent.encode().getBytes(StandardCharsets.UTF_8), true);
        DurableFiles.syncDirectory(fs, intentFile(tp).getParent());
    }

    private Path intentFile(TopicPartition tp) {
        return intentFiles.file(tp);
    }
}
