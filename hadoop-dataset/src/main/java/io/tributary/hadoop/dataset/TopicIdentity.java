package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Which topic a dataset's ledger counts the offsets of: its topic id (KIP-516), in
 * {@code _tributary/ledger/<topic>/topic.id}. A topic deleted and created again under its name has
 * a new id and offsets that start over at 0, so the ledger's entries mean nothing for it; a writer
 * resuming at them would skip the new topic's records below them without a word (or stop, only
 * while the new topic is shorter). So each writer checks the id before it resumes from the
 * ledger and refuses on a mismatch. The first writer that finds no id records it; a dataset
 * from before the check takes the id of the topic it is next written from. An id recorded while
 * the ledger was still empty (nothing loaded yet) is replaced.
 */
public final class TopicIdentity {
    public static final String FILE_NAME = "topic.id";

    private TopicIdentity() {
    }

    /**
     * Checks that the dataset's offsets of {@code topic} are those of the topic with id
     * {@code topicId}, recording the id if none is.
     *
     * @param ledger the dataset's ledger of {@code topic}, as the writer read it
     * @throws TopicRecreatedException if the ledger has entries of a topic with another id
     */
    public static void checkAndRecord(FileSystem fs, DatasetLayout layout, String topic, String topicId, LedgerState ledger)
            throws IOException {
        if (check(fs, layout, topic, topicId, ledger)) {
            return;
        }
        Path file = file(layout, topic);
        fs.delete(file, false); // absent, or the id of a topic none of whose offsets were loaded
        fs.mkdirs(file.getParent());
        if (!DurableFiles.createOnce(fs, file, (topicId + "\n").getBytes(StandardCharsets.UTF_8))) {
            checkAndRecord(fs, layout, topic, topicId, ledger); // another writer recorded one first: compare with it
        }
    }

    /**
     * As {@link #checkAndRecord} but records nothing (a dry run).
     *
     * @return whether the id recorded is {@code topicId}
     * @throws TopicRecreatedException if the ledger has entries of a topic with another id
     */
    public static boolean check(FileSystem fs, DatasetLayout layout, String topic, String topicId, LedgerState ledger)
            throws IOException {
        Optional<String> recorded = read(fs, file(layout, topic));
        if (recorded.isPresent() && !recorded.get().equals(topicId) && !ledger.nextOffsets().isEmpty()) {
            throw new TopicRecreatedException(topic, recorded.get(), topicId, layout);
        }
        return recorded.isPresent() && recorded.get().equals(topicId);
    }

    private static Path file(DatasetLayout layout, String topic) {
        return new Path(layout.ledgerDir(topic), FILE_NAME);
    }

    private static Optional<String> read(FileSystem fs, Path file) throws IOException {
        try (FSDataInputStream in = fs.open(file)) {
            return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
        } catch (FileNotFoundException none) {
            return Optional.empty();
        }
    }
}
