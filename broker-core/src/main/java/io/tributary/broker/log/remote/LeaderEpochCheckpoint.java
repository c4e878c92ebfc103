package io.tributary.broker.log.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Kafka's {@code leader-epoch-checkpoint} text: a version line ({@code 0}), an entry count line, then one
 * {@code <epoch> <start offset>} line per epoch, oldest first. The replica's leader epoch cache keeps its file in it;
 * a segment copy takes the entries up to its end, and a follower restarting above the remote part reads them back.
 */
public final class LeaderEpochCheckpoint {
    private static final String VERSION = "0";

    private LeaderEpochCheckpoint() {
    }

    /** The lines of a checkpoint of {@code entries} (epoch → start offset). */
    public static String encode(Map<Integer, Long> entries) {
        StringBuilder text = new StringBuilder(VERSION).append('\n').append(entries.size()).append('\n');
        new TreeMap<>(entries).forEach((epoch, start) -> text.append(epoch).append(' ').append(start).append('\n'));
        return text.toString();
    }

    /**
     * The entries (epoch → start offset) of a checkpoint's text.
     *
     * @throws IOException if it is not a checkpoint of version 0 with as many entries as it says
     */
    public static NavigableMap<Integer, Long> decode(String text) throws IOException {
        String[] lines = text.split("\n");
        try {
            int count = Integer.parseInt(lines[1].trim());
            if (!lines[0].trim().equals(VERSION) || lines.length != count + 2) {
                throw new IOException("not a leader-epoch checkpoint of version " + VERSION + " with " + count + " entries");
            }
            NavigableMap<Integer, Long> entries = new TreeMap<>();
            for (int i = 2; i < lines.length; i++) {
                String[] entry = lines[i].trim().split("\\s+");
                entries.put(Integer.parseInt(entry[0]), Long.parseLong(entry[1]));
            }
            return entries;
        } catch (RuntimeException e) {
            throw new IOException("unreadable leader-epoch checkpoint: " + e.getMessage(), e);
        }
    }

    /** The checkpoint a copy of a segment ending at {@code endOffset} takes: the epochs that start below its end. */
    static byte[] upTo(NavigableMap<Integer, Long> entries, long endOffset) {
        Map<Integer, Long> kept = new TreeMap<>();
        entries.forEach((epoch, start) -> {
            if (start < endOffset) {
                kept.put(epoch, start);
            }
        });
        return encode(kept).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The epochs of the offsets {@code [start, end)}: the epoch in force at {@code start} (mapped to it) and those
     * starting inside, as KIP-405's segment leader epochs; epochs the cache no longer knows are left out.
     */
    static NavigableMap<Integer, Long> within(NavigableMap<Integer, Long> entries, long start, long end) {
        NavigableMap<Integer, Long> found = new TreeMap<>();
        entries.forEach((epoch, epochStart) -> {
            if (epochStart <= start) {
                found.clear();
                found.put(epoch, start);
            } else if (epochStart < end) {
                found.put(epoch, epochStart);
            }
        });
        return found;
    }
}
