package io.tributary.broker.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * A per-log-dir file of one offset per partition, in Apache Kafka's checkpoint format: a version line (0), a
 * count line, then {@code topic partition offset} lines. Written to a temp file, fsynced and renamed, and the
 * directory fsynced, so a reader sees either the old or the new content, also after a power loss. Not
 * thread-safe: the owner serializes writes.
 */
public final class OffsetCheckpointFile {

    private static final int VERSION = 0;

    private final Path file;

    public OffsetCheckpointFile(Path file) {
        this.file = file;
    }

    /** The offsets in the file; empty if there is no file. */
    public Map<TopicPartition, Long> read() throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        try {
            if (lines.size() < 2 || Integer.parseInt(lines.get(0).trim()) != VERSION) {
                throw new IOException("Checkpoint file " + file + " has an unknown version or no header");
            }
            int count = Integer.parseInt(lines.get(1).trim());
            if (lines.size() - 2 < count) {
                throw new IOException("Checkpoint file " + file + " announces " + count + " entries but holds "
                        + (lines.size() - 2));
            }
            Map<TopicPartition, Long> offsets = new HashMap<>();
            for (String line : lines.subList(2, 2 + count)) {
                String[] fields = line.trim().split(" ");
                if (fields.length != 3) {
                    throw new IOException("Malformed line '" + line + "' in checkpoint file " + file);
                }
                offsets.put(new TopicPartition(fields[0], Integer.parseInt(fields[1])), Long.parseLong(fields[2]));
            }
            return offsets;
        } catch (NumberFormatException e) {
            throw new IOException("Malformed checkpoint file " + file, e);
        }
    }

    public void write(Map<TopicPartition, Long> offsets) throws IOException {
        StringBuilder text = new StringBuilder().append(VERSION).append('\n').append(offsets.size()).append('\n');
        offsets.forEach((tp, offset) ->
                text.append(tp.topic()).append(' ').append(tp.partition()).append(' ').append(offset).append('\n'));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(StandardCharsets.UTF_8.encode(text.toString()));
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Utils.flushDir(file.toAbsolutePath().getParent()); // the rename itself survives a power loss
    }
}
