package io.tributary.hadoop.input;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where each partition's range starts. Partitions a position has no offset for (never loaded,
 * never committed) start at the earliest offset, except with explicit offsets, where unlisted
 * partitions are not loaded.
 */
public interface StartPosition {
    /** Start offsets per partition; partitions missing from the result are not loaded. */
    Map<Integer, Long> resolve(PartitionOffsets offsets) throws IOException;

    /** What a start position can ask about the topic's partitions. */
    interface PartitionOffsets {
        Map<Integer, Long> earliest();

        Map<Integer, Long> latest();

        /** The group's committed offsets (only partitions it has committed). */
        Map<Integer, Long> committed(String groupId) throws IOException;

        /** The first offset with a timestamp at or after {@code timestampMs}, or the latest if none. */
        Map<Integer, Long> forTimestamp(long timestampMs) throws IOException;

        /** Resume offsets from the dataset's ledger, cross-checked with the newest committed files. */
        Map<Integer, Long> ledger() throws IOException;
    }

    /** Parses ledger, earliest, latest, group:&lt;id&gt;, timestamp:&lt;ms|ISO-8601&gt; or offsets:&lt;p&gt;=&lt;o&gt;,... */
    static StartPosition parse(String text) {
        String t = text.trim();
        int colon = t.indexOf(':');
        String kind = colon < 0 ? t : t.substring(0, colon);
        String arg = colon < 0 ? "" : t.substring(colon + 1).trim();
        switch (kind) {
            case "ledger":
                return named("ledger", o -> withEarliest(o, o.ledger()));
            case "earliest":
                return named("earliest", PartitionOffsets::earliest);
            case "latest":
                return named("latest", PartitionOffsets::latest);
            case "group":
                requireArg(text, arg);
                return named(t, o -> withEarliest(o, o.committed(arg)));
            case "timestamp":
                requireArg(text, arg);
                long ts = parseTimestamp(arg);
                return named(t, o -> o.forTimestamp(ts));
            case "offsets":
                requireArg(text, arg);
                Map<Integer, Long> explicit = parseOffsets(arg);
                return named(t, o -> explicit);
            default:
                throw new IllegalArgumentException("unknown start position '" + text
                    + "' (use ledger, earliest, latest, group:<id>, timestamp:<ms|ISO-8601> or offsets:<p>=<o>,...)");
        }
    }

    private static StartPosition named(String name, StartPosition position) {
        return new StartPosition() {
            @Override
            public Map<Integer, Long> resolve(PartitionOffsets offsets) throws IOException {
                return position.resolve(offsets);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    private static Map<Integer, Long> withEarliest(PartitionOffsets offsets, Map<Integer, Long> known) {
        Map<Integer, Long> starts = new TreeMap<>(offsets.earliest());
        known.forEach((p, o) -> {
            if (starts.containsKey(p)) {
                starts.put(p, o);
            }
        });
        return starts;
    }

    private static void requireArg(String text, String arg) {
        if (arg.isEmpty()) {
            throw new IllegalArgumentException("start position '" + text + "' needs a value after ':'");
        }
    }

    private static long parseTimestamp(String arg) {
        try {
            return arg.chars().allMatch(Character::isDigit) ? Long.parseLong(arg) : Instant.parse(arg).toEpochMilli();
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("bad start timestamp '" + arg + "' (epoch millis or ISO-8601)", e);
        }
    }

    private static Map<Integer, Long> parseOffsets(String arg) {
        Map<Integer, Long> offsets = new TreeMap<>();
        for (String entry : arg.split(",")) {
            String[] kv = entry.trim().split("=");
            try {
                if (kv.length != 2 || Integer.parseInt(kv[0].trim()) < 0 || Long.parseLong(kv[1].trim()) < 0) {
                    throw new NumberFormatException();
                }
                offsets.put(Integer.parseInt(kv[0].trim()), Long.parseLong(kv[1].trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad partition offset '" + entry + "' (use <partition>=<offset>)", e);
            }
        }
        return offsets;
    }
}
