package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The loaded-offset ledger of one topic, {@code <root>/_tributary/<topic>.ledger}: a small text
 * file of {@code partition.<p>=<next offset to load>} lines. It is replaced as a whole (temp file,
 * then a {@link FileContext} rename with {@code OVERWRITE}, atomic on HDFS and on the local
 * filesystem), so a reader sees the old or the new content, never a mix. Entries only move
 * forward.
 *
 * <p>Read-merge-write is not a lock: the loader and the sink take turns on one topic (hand-over),
 * they do not advance the same topic's ledger at the same moment. Thread-safe otherwise.
 */
public final class OffsetLedger {
    private static final String HEADER = "# Tributary loaded-offset ledger: partition.<p> = next offset to load\n";
    private static final String TOPIC_KEY = "topic";
    private static final String PARTITION_PREFIX = "partition.";

    private final FileContext files;
    private final Path file;
    private final String topic;

    private OffsetLedger(FileContext files, Path file, String topic) {
        this.files = files;
        this.file = file;
        this.topic = topic;
    }

    /** The ledger of {@code topic} in the dataset of {@code layout}. */
    public static OffsetLedger open(DatasetLayout layout, String topic, Configuration conf) throws IOException {
        Path file = layout.ledgerFile(topic);
        Path qualified = file.getFileSystem(conf).makeQualified(file);
        return new OffsetLedger(FileContext.getFileContext(qualified.toUri(), conf), qualified, topic);
    }

    public Path file() {
        return file;
    }

    /** The current state; empty if the topic was never loaded. */
    public LedgerState read() throws IOException {
        byte[] bytes;
        try (FSDataInputStream in = files.open(file)) {
            bytes = in.readAllBytes();
        } catch (FileNotFoundException neverWritten) {
            return LedgerState.empty(topic);
        }
        return parse(new String(bytes, StandardCharsets.UTF_8));
    }

    /**
     * Moves the given partitions to their new next offsets, keeping the others.
     *
     * @return the state now on disk
     * @throws LedgerRegressionException if a partition would move backward; nothing is written
     */
    public LedgerState advance(Map<Integer, Long> nextOffsets) throws IOException {
        LedgerState next = read().advancedBy(nextOffsets);
        write(next);
        return next;
    }

    private void write(LedgerState state) throws IOException {
        StringBuilder text = new StringBuilder(HEADER).append(TOPIC_KEY).append('=').append(topic).append('\n');
        state.nextOffsets().forEach((p, o) -> text.append(PARTITION_PREFIX).append(p).append('=').append(o).append('\n'));
        Path temp = new Path(file.getParent(), "." + file.getName() + "." + UUID.randomUUID() + DatasetLayout.TEMP_SUFFIX);
        try {
            try (FSDataOutputStream out = files.create(temp, EnumSet.of(CreateFlag.CREATE),
                    Options.CreateOpts.perms(FsPermission.getFileDefault()), Options.CreateOpts.createParent())) {
                out.write(text.toString().getBytes(StandardCharsets.UTF_8));
                out.hsync();
            }
            files.rename(temp, file, Options.Rename.OVERWRITE);
        } finally {
            // Gone after a successful rename; removes the half-written temp after a failure.
            files.delete(temp, false);
        }
    }

    private LedgerState parse(String text) throws IOException {
        Properties props = new Properties();
        props.load(new StringReader(text));
        String storedTopic = props.getProperty(TOPIC_KEY);
        if (!topic.equals(storedTopic)) {
            throw new IOException(file + " is the ledger of topic '" + storedTopic + "', not '" + topic + "'");
        }
        Map<Integer, Long> offsets = new TreeMap<>();
        for (String key : props.stringPropertyNames()) {
            if (key.equals(TOPIC_KEY)) {
                continue;
            }
            try {
                if (!key.startsWith(PARTITION_PREFIX)) {
                    throw new NumberFormatException("unknown key");
                }
                offsets.put(Integer.parseInt(key.substring(PARTITION_PREFIX.length())),
                    Long.parseLong(props.getProperty(key).trim()));
            } catch (NumberFormatException e) {
                throw new IOException("corrupt ledger " + file + ": bad line '" + key + "=" + props.getProperty(key) + "'", e);
            }
        }
        try {
            return new LedgerState(topic, offsets);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt ledger " + file + ": " + e.getMessage(), e);
        }
    }

    /** A short description for logs. */
    @Override
    public String toString() {
        return "ledger " + file;
    }
}
