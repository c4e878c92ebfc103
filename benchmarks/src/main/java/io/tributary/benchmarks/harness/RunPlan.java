package io.tributary.benchmarks.harness;

import java.time.Duration;

/**
 * How long and how often each phase runs. Every phase runs {@code rounds} times per side,
 * alternating A B A B, and the report takes medians over the rounds.
 *
 * @param rounds            repetitions of every phase on each side
 * @param warmUpDuration    length of each produce phase of the unrecorded warm-up pass; zero skips them
 * @param idleWindow        how long both brokers' CPU is watched with no load, after the warm-up
 * @param produceDuration   length of one timed produce phase
 * @param consumeRecords    records written once to the consume topic and read back by every consume phase
 * @param latencyDuration   length of one fixed-rate latency phase, warm-up included
 * @param latencyWarmup     start of each latency phase whose records are not counted
 * @param latencyLoad       the fixed rate as a fraction of the lower of the two measured produce peaks
 * @param brokerHeap        -Xms/-Xmx of each broker JVM
 * @param timeBudget        what the run aims at: sections cut rounds to end within it (see {@link RoundBudget})
 * @param timeLimit         the hard bound: past it the run is stopped and the brokers killed, with no result
 */
public record RunPlan(int rounds, Duration warmUpDuration, Duration idleWindow, Duration produceDuration,
                      long consumeRecords, Duration latencyDuration, Duration latencyWarmup, double latencyLoad,
                      String brokerHeap, Duration timeBudget, Duration timeLimit) {

    /** About 6 minutes on 2 cores: a warm-up pass and six rounds; never more than 10 minutes. */
    public static RunPlan full() {
        return new RunPlan(6, Duration.ofMillis(1000), Duration.ofSeconds(5), Duration.ofMillis(1500), 4_000_000,
                Duration.ofSeconds(5), Duration.ofSeconds(1), 0.5, "1g", Duration.ofSeconds(540), Duration.ofSeconds(580));
    }

    /**
     * About a minute: two short rounds without a produce warm-up, for development; expect noisy
     * ratios. On a crowded machine (broker start-up alone can take 40 s) it may overrun its two
     * minutes rather than end without a result.
     */
    public static RunPlan quick() {
        return new RunPlan(2, Duration.ZERO, Duration.ofSeconds(2), Duration.ofMillis(400), 100_000,
                Duration.ofMillis(1200), Duration.ofMillis(300), 0.5, "1g", Duration.ofSeconds(110), Duration.ofSeconds(170));
    }

    /** Longest a broker may take to start and answer. */
    public Duration startTimeout() {
        return Duration.ofSeconds(60);
    }

    /** Longest the untimed set-up and the consume phases may take before the run is failed. */
    public Duration phaseLimit() {
        return Duration.ofSeconds(120);
    }
}
