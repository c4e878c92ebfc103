package io.tributary.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The replicated part of a run: a cluster of three brokers per side ({@link BrokerCluster}), both
 * started together once the single brokers are gone, and the produce grid at replication factor 3,
 * alternating A B A B like the rest of the run. Broker CPU is summed over each side's three brokers.
 */
final class ReplicatedSection {
    /** Prefix of each side's cluster folder in the run's work directory ("A-rf3"). */
    static final String DIR_SUFFIX = "-rf3";

    private final RunPlan plan;
    private final BrokerSettings settings;
    private final Map<Side, BrokerFlavor> flavors;
    private final Path workDir;
    private final ChildProcesses children;
    private final ProcStat procStat;
    private final Rounds rounds;
    private final Scoreboard scoreboard;

    ReplicatedSection(RunPlan plan, BrokerSettings settings, Map<Side, BrokerFlavor> flavors, Path workDir,
                      ChildProcesses children, ProcStat procStat, Rounds rounds, Scoreboard scoreboard) {
        this.plan = plan;
        this.settings = settings;
        this.flavors = new EnumMap<>(flavors);
        this.workDir = workDir;
        this.children = children;
        this.procStat = procStat;
        this.rounds = rounds;
        this.scoreboard = scoreboard;
    }

    /**
     * Unrecorded, so that round 1 does not run the fresh JVMs' replication path interpreted (a cold
     * first round measured a third of the second): the plan's warm-up pass over the grid, or
     * without one, a single phase of the first workload on each side.
     */
    private void warmUp(Map<Side, ProducePhase> producers, ProduceGrid grid) throws InterruptedException {
        if (plan.warmUpDuration().isZero()) {
            for (Side side : Side.values()) {
                producers.get(side).forDuration(grid.workloads().get(0), plan.produceDuration());
            }
        } else {
            grid.warmUp(producers, plan.warmUpDuration());
        }
        rounds.log("warmed up RF%d", settings.replicationFactor());
    }

    /** Starts both clusters, measures, and stops them; the produce rounds end by {@code share} of the time limit. */
    void run(double share) throws IOException, InterruptedException {
        ProduceGrid grid = new ProduceGrid(plan.replicatedGrid(), plan.produceDuration());
        Map<Side, BrokerCluster> clusters = new EnumMap<>(Side.class);
        Map<Side, ProducePhase> producers = new EnumMap<>(Side.class);
        try {
            for (Side side : Side.values()) {
                ClusterLaunch launch = flavors.get(side).launchCluster(workDir.resolve(side.letter() + DIR_SUFFIX), settings);
                clusters.put(side, BrokerCluster.start(side.label(flavors.get(side)) + " RF" + settings.replicationFactor(),
                        launch, plan.brokerHeap(), plan.metadataHeap(), children, procStat));
            }
            Map<String, Integer> topics = new LinkedHashMap<>();
            grid.workloads().forEach(w -> topics.put(w.topic(), w.partitions()));
            for (Side side : Side.values()) {
                BrokerCluster cluster = clusters.get(side);
                cluster.awaitReady(plan.startTimeout());
                Topics.create(cluster, topics, settings.replicationFactor());
                producers.put(side, new ProducePhase(cluster));
                rounds.log("%s ready at %s (broker pids %s)", cluster.name(), cluster.bootstrapServers(), cluster.pids());
            }
            warmUp(producers, grid);
            IdleCpu.measure(clusters, plan.idleWindow(),
                    new Metric(MetricKind.IDLE_CPU, "idle RF" + settings.replicationFactor(), 0, settings.replicationFactor()),
                    scoreboard);
            grid.measure("produce RF" + settings.replicationFactor(), share, producers, rounds, scoreboard);
        } finally {
            producers.values().forEach(ProducePhase::close);
            clusters.values().forEach(BrokerCluster::close);
        }
    }
}
