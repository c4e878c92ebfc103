package io.tributary.hadoop.dataset;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@code COMMITTING} marker of a loader job: the ledger advance the commit makes, complete
 * only with its {@code end} line (a torn marker reads as none).
 * <pre>
 * writer=&lt;job id&gt;
 * basis=&lt;ledger version the job read&gt;
 * read.&lt;p&gt;=&lt;next offset read&gt;     (absent: the partition had no entry)
 * next.&lt;p&gt;=&lt;next offset after this load&gt;
 * end
 * </pre>
 */
public record CommitMarker(String writer, long basisVersion, Map<Integer, Long> read, Map<Integer, Long> next) {
    private static final String END = "end";

    public CommitMarker {
        read = Map.copyOf(read);
        next = Map.copyOf(next);
    }

    public String encode() {
        StringBuilder text = new StringBuilder("writer=").append(writer).append('\n')
            .append("basis=").append(basisVersion).append('\n');
        new TreeMap<>(read).forEach((p, o) -> text.append("read.").append(p).append('=').append(o).append('\n'));
        new TreeMap<>(next).forEach((p, o) -> text.append("next.").append(p).append('=').append(o).append('\n'));
        return text.append(END).append('\n').toString();
    }

    /** The marker in {@code text}; empty if it is torn or not a marker of this format. */
    public static Optional<CommitMarker> decode(String text) {
        var lines = text.lines().toList();
        if (lines.isEmpty() || !lines.get(lines.size() - 1).equals(END)) {
            return Optional.empty();
        }
        String writer = null;
        long basis = -1;
        Map<Integer, Long> read = new TreeMap<>();
        Map<Integer, Long> next = new TreeMap<>();
        try {
            for (String line : lines.subList(0, lines.size() - 1)) {
                int eq = line.indexOf('=');
                String key = eq < 0 ? line : line.substring(0, eq);
                String value = eq < 0 ? "" : line.substring(eq + 1);
                if (key.equals("writer")) {
                    writer = value;
                } else if (key.equals("basis")) {
                    basis = Long.parseLong(value);
                } else if (key.startsWith("read.")) {
                    read.put(Integer.parseInt(key.substring(5)), Long.parseLong(value));
                } else if (key.startsWith("next.")) {
                    next.put(Integer.parseInt(key.substring(5)), Long.parseLong(value));
                } else {
                    return Optional.empty();
                }
            }
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return writer == null || basis < 0 ? Optional.empty() : Optional.of(new CommitMarker(writer, basis, read, next));
    }
}
