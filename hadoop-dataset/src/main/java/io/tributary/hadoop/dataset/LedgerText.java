package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.StringReader;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The text of a ledger file: {@code topic=<t>} and {@code partition.<p>=<next offset>} lines
 * (Java properties syntax), and in a version file {@code writer=<commit id>}: the commit that
 * created it, so that a writer recovering from a crash can tell whether its compare-and-set
 * happened; and {@code after=<commit id>}: the writer of the version it was built on, which
 * tells a version of the chain from an orphan (a name reused after a prune, see
 * {@link OffsetLedger}). The single-file ledger of earlier versions and today's update files
 * share it, so either can be read with {@code cat}.
 */
final class LedgerText {
    private static final String HEADER = "# Tributary loaded-offset ledger: partition.<p> = next offset to load\n";
    private static final String TOPIC_KEY = "topic";
    private static final String WRITER_KEY = "writer";
    private static final String AFTER_KEY = "after";
    private static final String PARTITION_PREFIX = "partition.";

    private LedgerText() {
    }

    static String encode(String topic, Map<Integer, Long> nextOffsets, String writer, String after) {
        StringBuilder text = new StringBuilder(HEADER).append(TOPIC_KEY).append('=').append(topic).append('\n');
        if (!writer.isEmpty()) {
            text.append(WRITER_KEY).append('=').append(writer).append('\n');
        }
        if (!after.isEmpty()) {
            text.append(AFTER_KEY).append('=').append(after).append('\n');
        }
        new TreeMap<>(nextOffsets).forEach((p, o) -> text.append(PARTITION_PREFIX).append(p).append('=').append(o).append('\n'));
        return text.toString();
    }

    /** The commit that wrote a version file, and the writer of the version it was built on; "" where a file names none. */
    record Authors(String writer, String after) {
    }

    static Authors authors(String text) throws IOException {
        Properties props = properties(text);
        return new Authors(props.getProperty(WRITER_KEY, ""), props.getProperty(AFTER_KEY, ""));
    }

    private static Properties properties(String text) throws IOException {
        Properties props = new Properties();
        props.load(new StringReader(text));
        return props;
    }

    /** @throws IOException naming {@code file} if the text is not a ledger of {@code topic} */
    static Map<Integer, Long> parse(String topic, Path file, String text) throws IOException {
        Properties props = properties(text);
        String storedTopic = props.getProperty(TOPIC_KEY);
        if (!topic.equals(storedTopic)) {
            throw new IOException(file + " is the ledger of topic '" + storedTopic + "', not '" + topic + "'");
        }
        Map<Integer, Long> offsets = new TreeMap<>();
        for (String key : props.stringPropertyNames()) {
            if (key.equals(TOPIC_KEY) || key.equals(WRITER_KEY) || key.equals(AFTER_KEY)) {
                continue;
            }
            try {
                if (!key.startsWith(PARTITION_PREFIX)) {
                    throw new NumberFormatException("unknown key");
                }
                int partition = Integer.parseInt(key.substring(PARTITION_PREFIX.length()));
                long next = Long.parseLong(props.getProperty(key).trim());
                if (partition < 0 || next < 0) {
                    throw new NumberFormatException("negative");
                }
                offsets.put(partition, next);
            } catch (NumberFormatException e) {
                throw new IOException("corrupt ledger " + file + ": bad line '" + key + "=" + props.getProperty(key) + "'", e);
            }
        }
        return offsets;
    }
}
