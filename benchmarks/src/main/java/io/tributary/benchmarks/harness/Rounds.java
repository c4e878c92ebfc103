package io.tributary.benchmarks.harness;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Runs the rounds of a run's sections within the time budget, in the A B / B A order, and prints
 * the progress lines. Shared by the single-broker and the replicated part of a run.
 */
final class Rounds {
    private final int maxRounds;
    private final RoundBudget budget;
    private final PrintStream progress;

    Rounds(int maxRounds, RoundBudget budget, PrintStream progress) {
        this.maxRounds = maxRounds;
        this.budget = budget;
        this.progress = progress;
    }

    /** One round of a section; rounds are numbered from 1. */
    @FunctionalInterface
    interface Round {
        void run(int round) throws InterruptedException;
    }

    /**
     * Runs up to the plan's number of rounds, fewer if the time budget says the next would not end
     * by {@code share} of the limit.
     */
    void run(String section, double share, Round round) throws InterruptedException {
        int done = 0;
        Duration last = Duration.ZERO;
        while (done < maxRounds && budget.allowsAnother(done, last, share)) {
            long start = budget.now();
            round.run(done + 1);
            done++;
            last = Duration.ofNanos(budget.now() - start);
        }
        if (done < maxRounds) {
            log("%s: %d of %d rounds, the rest would not fit in the time limit", section, done, maxRounds);
        }
    }

    /** A then B in odd rounds, B then A in even rounds. */
    static List<Side> order(int round) {
        return round % 2 == 1 ? List.of(Side.BASELINE, Side.CANDIDATE) : List.of(Side.CANDIDATE, Side.BASELINE);
    }

    void report(int round, String phase, Side side, PhaseMeasurement m) {
        log("round %d  %-32s %s  %,11.0f records/s  %7.1f MB/s  broker %.3f CPU-s/1M",
                round, phase, side.letter(), m.recordsPerSecond(), m.megabytesPerSecond(), m.cpuSecondsPerMillionRecords());
    }

    /** A progress line, prefixed with the seconds since the run's time budget started. */
    void log(String format, Object... args) {
        progress.printf(Locale.ROOT, "[%4ds] %s%n", budget.elapsed().toSeconds(), String.format(Locale.ROOT, format, args));
    }
}
