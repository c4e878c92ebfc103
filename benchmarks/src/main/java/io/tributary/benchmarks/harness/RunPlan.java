package io.tributary.benchmarks.harness;

import java.time.Duration;
import java.util.List;

/**
 * How long and how often each phase runs. Every phase runs {@code rounds} times per side,
 * alternating A B A B, and the report takes medians over the rounds.
 *
 * @param rounds            repetitions of every phase on each side
 * @param warmUpDuration    length of each produce phase of the unrecorded warm-up pass; zero skips them
 * @param idleWindow        how long the brokers' CPU is watched with no load, after the warm-up
 * @param produceDuration   length of one timed produce phase (at either replication factor)
 * @param consumeRecords    records written once to the consume topic and read back by every consume phase
 * @param groupRecords      records written once to the group topic and read by every consumer-group phase
 * @param latencyDuration   length of one fixed-rate latency phase, warm-up included
 * @param latencyWarmup     start of each latency phase whose records are not counted
 * @param latencyLoad       the fixed rate as a fraction of the lower of the two measured produce peaks
 * @param replicatedGrid    the produce workloads at replication factor 3
 * @param brokerHeap        -Xms/-Xmx of each broker JVM, at either replication factor
 * @param timeBudget        what the run aims at: sections cut rounds to end within it (see {@link RoundBudget})
 * @param timeLimit         the hard bound: past it the run is stopped and the brokers killed, with no result
 */
public record RunPlan(int rounds, Duration warmUpDuration, Duration idleWindow, Duration produceDuration,
                      long consumeRecords, long groupRecords, Duration latencyDuration, Duration latencyWarmup,
                      double latencyLoad, List<ProduceWorkload> replicatedGrid, String brokerHeap, Duration timeBudget,
                      Duration timeLimit) {
    private static final int REPLICATED = BrokerSettings.replicated().replicationFactor();

    public RunPlan {
        replicatedGrid = List.copyOf(replicatedGrid);
    }

    /**
     * About 8 minutes on 2 cores, never more than 10: a warm-up pass and four rounds at RF 1, then
     * up to four rounds of the acks=all grid at RF 3. An acks=all phase at RF 3 on a busy machine
     * spends seconds draining the producer's buffer, so acks=1 at RF 3 does not fit.
     */
    public static RunPlan full() {
        return new RunPlan(4, Duration.ofMillis(1000), Duration.ofSeconds(5), Duration.ofMillis(1500), 4_000_000,
                500_000, Duration.ofSeconds(5), Duration.ofSeconds(1), 0.5, ProduceWorkload.grid(REPLICATED, List.of("all")),
                "1g", Duration.ofSeconds(540), Duration.ofSeconds(580));
    }

    /**
     * Meant for under two minutes (not yet measured on a quiet machine): two short rounds without a
     * produce warm-up, and a single workload (100 B, acks=all, 6 partitions) at RF 3, for
     * development; expect noisy ratios. On a crowded machine (starting the eight JVMs of the two
     * clusters alone took 40-100 s; a whole run up to 318 s) it overruns rather than end without a
     * result.
     */
    public static RunPlan quick() {
        return new RunPlan(2, Duration.ZERO, Duration.ofSeconds(1), Duration.ofMillis(400), 100_000, 60_000,
                Duration.ofMillis(1200), Duration.ofMillis(300), 0.5, List.of(new ProduceWorkload(100, "all", 6, REPLICATED)),
                "1g", Duration.ofSeconds(110), Duration.ofSeconds(420));
    }

    /** -Xms/-Xmx of the metadata node of a replicated cluster (ZooKeeper, KRaft controller), the same on both sides. */
    public String metadataHeap() {
        return "256m";
    }

    /**
     * Longest a broker (or a whole cluster) may take to start and answer: at a load average of 40
     * on 2 cores, four Kafka JVMs took more than 90 s to form a cluster.
     */
    public Duration startTimeout() {
        return Duration.ofSeconds(150);
    }

    /** Longest the untimed set-up and the consume phases may take before the run is failed. */
    public Duration phaseLimit() {
        return Duration.ofSeconds(120);
    }
}
