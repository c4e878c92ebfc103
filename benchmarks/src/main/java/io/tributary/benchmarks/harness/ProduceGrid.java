package io.tributary.benchmarks.harness;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Measures a grid of produce workloads on both sides, round by round, into the scoreboard. */
final class ProduceGrid {
    private final List<ProduceWorkload> workloads;
    private final Duration phaseDuration;

    ProduceGrid(List<ProduceWorkload> workloads, Duration phaseDuration) {
        this.workloads = List.copyOf(workloads);
        this.phaseDuration = phaseDuration;
    }

    List<ProduceWorkload> workloads() {
        return workloads;
    }

    /** Each workload once on each side for {@code duration}, recording nothing; zero skips it. */
    void warmUp(Map<Side, ProducePhase> producers, Duration duration) throws InterruptedException {
        if (duration.isZero()) {
            return;
        }
        for (Side side : Side.values()) {
            for (ProduceWorkload workload : workloads) {
                producers.get(side).forDuration(workload, duration);
            }
        }
    }

    /** Every workload once per round on each side, alternating; throughput and CPU per record. */
    void measure(String section, double share, Map<Side, ProducePhase> producers, Rounds rounds, Scoreboard scoreboard)
            throws InterruptedException {
        rounds.run(section, share, round -> {
            for (ProduceWorkload workload : workloads) {
                for (Side side : Rounds.order(round)) {
                    PhaseMeasurement m = producers.get(side).forDuration(workload, phaseDuration);
                    scoreboard.add(workload.metric(MetricKind.PRODUCE_THROUGHPUT), side, m.recordsPerSecond());
                    scoreboard.add(workload.metric(MetricKind.PRODUCE_CPU), side, m.cpuSecondsPerMillionRecords());
                    rounds.report(round, "produce " + workload.name(), side, m);
                }
            }
        });
    }
}
