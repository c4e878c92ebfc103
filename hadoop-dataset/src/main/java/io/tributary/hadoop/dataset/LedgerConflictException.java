package io.tributary.hadoop.dataset;

import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * A ledger advance refused because another writer moved some of its partitions after this
 * writer read them: committing would land those offsets twice. Nothing was written; the writer
 * re-plans from the ledger (the sink) or gives up its load (the loader).
 */
public class LedgerConflictException extends IOException {
    /** What the writer read and what the ledger holds now, of one partition. */
    public record Moved(OptionalLong read, OptionalLong now) {
        @Override
        public String toString() {
            return describe(read) + " -> " + describe(now);
        }

        private static String describe(OptionalLong offset) {
            return offset.isPresent() ? Long.toString(offset.getAsLong()) : "none";
        }
    }

    private final String topic;
    private final Map<Integer, Moved> moved;

    public LedgerConflictException(String topic, Map<Integer, Moved> moved) {
        super(message(topic, moved));
        this.topic = topic;
        this.moved = Collections.unmodifiableMap(new TreeMap<>(moved));
    }

    public String topic() {
        return topic;
    }

    /** The partitions another writer moved, with the next offset read and the one found. */
    public Map<Integer, Moved> moved() {
        return moved;
    }

    private static String message(String topic, Map<Integer, Moved> moved) {
        StringBuilder text = new StringBuilder("another writer advanced the ledger of");
        new TreeMap<>(moved).forEach((p, m) -> text.append(' ').append(topic).append('-').append(p)
            .append(" (next offset ").append(m).append(')'));
        return text.append(" after this writer read it").toString();
    }
}
