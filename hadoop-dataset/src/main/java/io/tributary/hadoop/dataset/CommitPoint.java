package io.tributary.hadoop.dataset;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The named steps of the loader's and the sink's commit protocol, and the fault hook at each.
 * Crash tests aim a kill at one of them: with the system property {@value #HALT_PROPERTY} set to
 * {@code <writer>:<point>[:<n>]} (for example {@code sink:after-ledger:3}), the process halts
 * the {@code n}th time (default the first) that writer reaches that point, with
 * {@link Runtime#halt} and exit code {@value #HALT_EXIT_CODE}: no shutdown hook, no finally
 * block, no flush, which is what a SIGKILL looks like to the files. In-process tests may
 * {@link #listen} instead, to interleave two writers at a point. Unset, each call costs an
 * uncontended lock (a few per commit). The property is read when a writer first reaches a point, not when this
 * class loads: a malformed value fails that writer with an {@link IllegalArgumentException}
 * naming the property, instead of making the class unusable for everyone.
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

    private static volatile Listener listener = new FromProperty();

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

    /** Replaces the listener (tests only); null removes it, and so does the property's hook. */
    public static void listen(Listener replacement) {
        listener = replacement;
    }

    /**
     * The halt hook of {@value #HALT_PROPERTY} {@code <writer>:<point>[:<n>]}; does nothing if the
     * property is unset.
     *
     * @throws IllegalArgumentException naming the property and the accepted form if it is malformed
     */
    static Listener haltFromProperty(String value) {
        if (value == null || value.isBlank()) {
            return (w, p) -> { };
        }
        String[] parts = value.trim().split(":");
        String writer = parts[0];
        CommitPoint point = parts.length >= 2 && parts.length <= 3 ? parse(parts[1]) : null;
        int nth = parts.length == 3 ? positive(parts[2]) : 1;
        if (point == null || writer.isEmpty() || nth < 1) {
            throw new IllegalArgumentException(HALT_PROPERTY + " must be <writer>:<point>[:<n>] with <point> one of "
                + Arrays.stream(values()).map(CommitPoint::spelling).toList() + " and <n> a positive count, not '" + value + "'");
        }
        AtomicInteger seen = new AtomicInteger();
        return (w, p) -> {
            if (w.equals(writer) && p == point && seen.incrementAndGet() == nth) {
                System.err.println("halting at " + w + ":" + p.spelling() + " (" + HALT_PROPERTY + ")");
                System.err.flush();
                Runtime.getRuntime().halt(HALT_EXIT_CODE);
            }
        };
    }

    private static CommitPoint parse(String spelling) {
        return Arrays.stream(values()).filter(p -> p.spelling().equals(spelling)).findFirst().orElse(null);
    }

    private static int positive(String count) {
        try {
            return Integer.parseInt(count);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The property's hook, parsed when a writer first reaches a point; a malformed value fails each writer that does. */
    private static final class FromProperty implements Listener {
        private Listener parsed;

        @Override
        public void reached(String writer, CommitPoint point) {
            Listener hook;
            synchronized (this) { // one parse, so one count of the points reached
                if (parsed == null) {
                    parsed = haltFromProperty(System.getProperty(HALT_PROPERTY));
                }
                hook = parsed;
            }
            hook.reached(writer, point);
        }
    }
}
