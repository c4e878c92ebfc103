package io.tributary.hadoop.dataset;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The named steps of the loader's and the sink's commit protocol, and the fault hook at each.
 * Crash tests aim a kill at one of them: with the system property {@value #HALT_PROPERTY} set to
 * {@code <writer>:<point>[:<n>]} (for example {@code sink:after-ledger:3}), the process halts
 * the {@code n}th time (default the first) that writer reaches that point, with
 * {@link Runtime#halt} and exit code {@value #HALT_EXIT_CODE}: no shutdown hook, no finally
 * block, no flush, which is what a SIGKILL looks like to the files. In-process tests may
 * {@link #listen} instead, to interleave two writers at a point. Unset, each call is a read of
 * a volatile field.
 */
public enum CommitPoint {
    /** The data files are written, closed and synced under their temp names; nothing records them yet. */
    AFTER_TEMP_FILES,
    /** The intent (the sink's {@code commit.intent}, the loader's {@code COMMITTING}) is durable. */
    AFTER_INTENT,
    /** The ledger's compare-and-set succeeded: the offsets are the writer's, their files not yet visible. */
    AFTER_LEDGER,
    /** One data file has its final name, another not yet. */
    BETWEEN_RENAMES,
    /** Every file has its final name; the intent is still there. */
    AFTER_RENAMES;

    public static final String HALT_PROPERTY = "tributary.test.halt.at";
    public static final int HALT_EXIT_CODE = 137;

    /** Told of every point a writer reaches; runs on the writer's thread. */
    public interface Listener {
        void reached(String writer, CommitPoint point);
    }

    private static volatile Listener listener = haltFromProperty(System.getProperty(HALT_PROPERTY));

    /** The property's spelling of this point: {@code after-temp-files}, ... */
    public String spelling() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Called by {@code writer} ("sink" or "loader") when it reaches this point. */
    public void reached(String writer) {
        Listener current = listener;
        if (current != null) {
            current.reached(writer, this);
        }
    }

    /** Replaces the listener (tests only); null removes it. */
    public static void listen(Listener replacement) {
        listener = replacement;
    }

    private static Listener haltFromProperty(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String[] parts = value.trim().split(":");
        if (parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException(HALT_PROPERTY + " must be <writer>:<point>[:<n>], not '" + value + "'");
        }
        String writer = parts[0];
        CommitPoint point = CommitPoint.valueOf(parts[1].toUpperCase(Locale.ROOT).replace('-', '_'));
        int nth = parts.length == 3 ? Integer.parseInt(parts[2]) : 1;
        AtomicInteger seen = new AtomicInteger();
        return (w, p) -> {
            if (w.equals(writer) && p == point && seen.incrementAndGet() == nth) {
                System.err.println("halting at " + w + ":" + p.spelling() + " (" + HALT_PROPERTY + ")");
                System.err.flush();
                Runtime.getRuntime().halt(HALT_EXIT_CODE);
            }
        };
    }
}
