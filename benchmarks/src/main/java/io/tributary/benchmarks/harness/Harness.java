package io.tributary.benchmarks.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One side-by-side run: starts both brokers in child JVMs, creates the same topics on both, warms
 * both up with an untimed pass, then runs every phase once per round on each side, alternating
 * A B A B. Which side goes first flips every round (A B, then B A), so that neither always runs
 * on the client JIT the other warmed or in the page-cache write-back the other caused. Phases, in
 * order: the produce grid, consume from the page cache, a consumer group, fixed-rate end-to-end
 * latency (its rate comes from the produce results), transactional produce. Then the single brokers
 * stop and the replicated part runs on a three-broker cluster per side ({@link ReplicatedSection}).
 * {@link #runTransactionsOnly()} runs the transactional phase alone, to check it.
 */
public final class Harness {
    static final String CONSUME_TOPIC = "consume-source";
    static final String GROUP_TOPIC = "group-source";
    static final String LATENCY_TOPIC = "latency";
    /** The consume phase's shape: one partition of 100 B records. */
    static final ProduceWorkload CONSUME_SHAPE = new ProduceWorkload(100, "1", 1);
    /** The consumer-group phase's shape: 100 B records over six partitions, two per member. */
    static final ProduceWorkload GROUP_SHAPE = new ProduceWorkload(100, "1", 6);
    /** The latency phase's shape: its rate is a fraction of this workload's measured peak. */
    static final ProduceWorkload LATENCY_SHAPE = new ProduceWorkload(100, "all", 1);
    private static final Metric IDLE_CPU = new Metric(MetricKind.IDLE_CPU, "idle", 0);
    /**
     * By which fraction of the time limit each section must end; the rest is for the report and
     * shutdown. The replicated part gets what the single-broker part leaves: on a busy machine
     * (load average 20-30) starting its eight JVMs took 40-80 s and each round 40 s.
     */
    private static final double PRODUCE_SHARE = 0.40;
    private static final double CONSUME_SHARE = 0.45;
    private static final double GROUP_SHARE = 0.49;
    private static final double LATENCY_SHARE = 0.60;
    private static final double TRANSACTIONS_SHARE = 0.65;
    private static final double REPLICATED_PRODUCE_SHARE = 0.93;

    private final RunPlan plan;
    private final BrokerSettings settings;
    private final BrokerSettings replicated;
    private final Map<Side, BrokerFlavor> flavors;
    private final Path workDir;
    private final ChildProcesses children;
    private final ProcStat procStat;
    private final Rounds rounds;
    private final Scoreboard scoreboard = new Scoreboard();

    /**
     * @param settings   the single brokers' settings, replication factor 1
     * @param replicated the clusters' settings, replication factor 3
     */
    public Harness(RunPlan plan, BrokerSettings settings, BrokerSettings replicated, Map<Side, BrokerFlavor> flavors,
                   Path workDir, ChildProcesses children, ProcStat procStat, RoundBudget budget, PrintStream progress) {
        if (settings.replicationFactor() != 1 || replicated.replicationFactor() == 1) {
            throw new IllegalArgumentException("expected single brokers at replication factor 1 and a replicated cluster, got RF "
                    + settings.replicationFactor() + " and RF " + replicated.replicationFactor());
        }
        this.plan = plan;
        this.settings = settings;
        this.replicated = replicated;
        this.flavors = new EnumMap<>(flavors);
        this.workDir = workDir.toAbsolutePath(); // the brokers run in their own directories
        this.children = children;
        this.procStat = procStat;
        this.rounds = new Rounds(plan.rounds(), budget, progress);
    }

    public RunResult run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        Directories.deleteRecursively(workDir);
        try {
            Map<Side, LatencyDistribution> latency = runSingleBrokers();
            new ReplicatedSection(plan, replicated, flavors, workDir, children, procStat, rounds, scoreboard)
                    .run(REPLICATED_PRODUCE_SHARE);
            return new RunResult(plan, settings, replicated, flavors, scoreboard.comparisons(), latencyRate(), latency,
                    Duration.ofNanos(System.nanoTime() - start));
        } finally {
            deleteData();
        }
    }

    /** The part at replication factor 1, one broker per side; returns the latency distributions. */
    private Map<Side, LatencyDistribution> runSingleBrokers() throws IOException, InterruptedException {
        Map<Side, BrokerProcess> brokers = new EnumMap<>(Side.class);
        Map<Side, ProducePhase> producers = new EnumMap<>(Side.class);
        try {
            for (Side side : Side.values()) {
                Path brokerDir = Files.createDirectories(workDir.resolve(side.letter()));
                BrokerLaunch launch = flavors.get(side).launch(brokerDir, settings);
                brokers.put(side, BrokerProcess.start(side.label(flavors.get(side)), launch, plan.brokerHeap(), brokerDir,
                        children, procStat));
            }
            for (Side side : Side.values()) {
                BrokerProcess broker = brokers.get(side);
                broker.awaitReady(plan.startTimeout());
                producers.put(side, new ProducePhase(broker));
                prepare(broker, producers.get(side));
                rounds.log("%s ready at %s (pid %d)", broker.name(), broker.bootstrapServers(), broker.pid());
            }
            ProduceGrid grid = new ProduceGrid(ProduceWorkload.grid(), plan.produceDuration());
            warmUp(brokers, producers, grid);
            IdleCpu.measure(brokers, plan.idleWindow(), IDLE_CPU, scoreboard);
            grid.measure("produce", PRODUCE_SHARE, producers, rounds, scoreboard);
            measureConsume(brokers);
            measureGroup(brokers);
            Map<Side, LatencyDistribution> latency = measureLatency(brokers, latencyRate());
            measureTransactions(brokers, TRANSACTIONS_SHARE);
            return latency;
        } finally {
            producers.values().forEach(ProducePhase::close);
            brokers.values().forEach(BrokerProcess::close);
        }
    }

    /**
     * Only the transactional produce phase, on one broker per side, for up to the whole time budget: a check of the
     * phase, whose result has no RESULT line (nothing else was measured) and is not for the docs.
     */
    public RunResult runTransactionsOnly() throws IOException, InterruptedException {
        long start = System.nanoTime();
        Directories.deleteRecursively(workDir);
        Map<Side, BrokerProcess> brokers = new EnumMap<>(Side.class);
        try {
            for (Side side : Side.values()) {
                Path brokerDir = Files.createDirectories(workDir.resolve(side.letter()));
                brokers.put(side, BrokerProcess.start(side.label(flavors.get(side)), flavors.get(side).launch(brokerDir, settings),
                        plan.brokerHeap(), brokerDir, children, procStat));
            }
            for (BrokerProcess broker : brokers.values()) {
                broker.awaitReady(plan.startTimeout());
            }
            measureTransactions(brokers, 1.0);
            return new RunResult(plan, settings, replicated, flavors, scoreboard.comparisons(), Double.NaN, Map.of(),
                    Duration.ofNanos(System.nanoTime() - start));
        } finally {
            brokers.values().forEach(BrokerProcess::close);
            deleteData();
        }
    }

    /**
     * Transactional produce, one transactional producer per side (created once, so its InitProducerId is not timed),
     * after an unrecorded phase each.
     */
    private void measureTransactions(Map<Side, BrokerProcess> brokers, double share) throws InterruptedException {
        Map<Side, TransactionalProducePhase> producers = new EnumMap<>(Side.class);
        try {
            for (Side side : Side.values()) {
                Topics.create(brokers.get(side), Map.of(TransactionalProducePhase.TOPIC,
                        TransactionalProducePhase.SHAPE.partitions()), settings.replicationFactor());
                producers.put(side, new TransactionalProducePhase(brokers.get(side), "bench-transactions-" + side.letter()));
                producers.get(side).forDuration(plan.produceDuration());
            }
            Metric throughput = TransactionalProducePhase.metric(MetricKind.TRANSACTIONAL_PRODUCE_THROUGHPUT);
            rounds.run("transactional produce", share, round -> {
                for (Side side : Rounds.order(round)) {
                    PhaseMeasurement m = producers.get(side).forDuration(plan.produceDuration());
                    scoreboard.add(throughput, side, m.recordsPerSecond());
                    scoreboard.add(TransactionalProducePhase.metric(MetricKind.TRANSACTIONAL_PRODUCE_CPU), side,
                            m.cpuSecondsPerMillionRecords());
                    rounds.report(round, "transactional produce " + throughput.workload(), side, m);
                }
            });
        } finally {
            producers.values().forEach(TransactionalProducePhase::close);
        }
    }

    /** A full run leaves some 20 GB of segments behind; only the brokers' logs are worth keeping. */
    private void deleteData() {
        List<Path> dataDirs;
        try (Stream<Path> paths = Files.walk(workDir, 3)) {
            dataDirs = paths.filter(p -> p.getFileName().toString().equals(BrokerFlavor.DATA_DIR) && Files.isDirectory(p))
                    .toList();
        } catch (IOException e) {
            rounds.log("could not list %s: %s", workDir, e);
            return;
        }
        for (Path data : dataDirs) {
            try {
                Directories.deleteRecursively(data);
            } catch (IOException e) {
                rounds.log("could not delete %s: %s", data, e);
            }
        }
    }

    /** Creates the topics and writes the consume and group topics once. */
    private void prepare(Broker broker, ProducePhase producer) throws InterruptedException {
        Map<String, Integer> topics = new LinkedHashMap<>();
        ProduceWorkload.grid().forEach(w -> topics.put(w.topic(), w.partitions()));
        topics.put(CONSUME_TOPIC, CONSUME_SHAPE.partitions());
        topics.put(GROUP_TOPIC, GROUP_SHAPE.partitions());
        topics.put(LATENCY_TOPIC, LATENCY_SHAPE.partitions());
        Topics.create(broker, topics, settings.replicationFactor());
        producer.exactly(CONSUME_TOPIC, CONSUME_SHAPE.recordBytes(), plan.consumeRecords(), plan.phaseLimit());
        producer.exactly(GROUP_TOPIC, GROUP_SHAPE.recordBytes(), plan.groupRecords(), plan.phaseLimit());
    }

    /**
     * Unrecorded: a short pass over the produce grid (unless the plan has none), one read of the
     * consume topic and one group read, so that round 1 runs on compiled code. The first read of a
     * topic is the slowest phase of all when cold.
     */
    private void warmUp(Map<Side, BrokerProcess> brokers, Map<Side, ProducePhase> producers, ProduceGrid grid)
            throws InterruptedException {
        grid.warmUp(producers, plan.warmUpDuration());
        for (Side side : Side.values()) {
            ConsumePhase.read(brokers.get(side), CONSUME_TOPIC, plan.consumeRecords(), plan.phaseLimit());
            GroupConsumePhase.read(brokers.get(side), GROUP_TOPIC, GROUP_SHAPE.recordBytes(), groupId(side, 0),
                    plan.phaseLimit());
        }
        rounds.log("warmed up");
    }

    private void measureConsume(Map<Side, BrokerProcess> brokers) throws InterruptedException {
        rounds.run("consume", CONSUME_SHARE, round -> {
            for (Side side : Rounds.order(round)) {
                PhaseMeasurement m = ConsumePhase.read(brokers.get(side), CONSUME_TOPIC, plan.consumeRecords(), plan.phaseLimit());
                scoreboard.add(CONSUME_SHAPE.readMetric(MetricKind.CONSUME_THROUGHPUT), side, m.recordsPerSecond());
                scoreboard.add(CONSUME_SHAPE.readMetric(MetricKind.CONSUME_CPU), side, m.cpuSecondsPerMillionRecords());
                rounds.report(round, "consume " + CONSUME_SHAPE.readMetric(MetricKind.CONSUME_THROUGHPUT).workload(), side, m);
            }
        });
    }

    /** A new group every time, so that each phase joins from scratch and reads from the beginning. */
    private void measureGroup(Map<Side, BrokerProcess> brokers) throws InterruptedException {
        Metric throughput = groupMetric(MetricKind.GROUP_CONSUME_THROUGHPUT);
        rounds.run("group consume", GROUP_SHARE, round -> {
            for (Side side : Rounds.order(round)) {
                PhaseMeasurement m = GroupConsumePhase.read(brokers.get(side), GROUP_TOPIC, GROUP_SHAPE.recordBytes(),
                        groupId(side, round), plan.phaseLimit());
                scoreboard.add(throughput, side, m.recordsPerSecond());
                scoreboard.add(groupMetric(MetricKind.GROUP_CONSUME_CPU), side, m.cpuSecondsPerMillionRecords());
                rounds.report(round, "group consume " + throughput.workload(), side, m);
            }
        });
    }

    /** "100B 6p 3 members". */
    static Metric groupMetric(MetricKind kind) {
        Metric read = GROUP_SHAPE.readMetric(kind);
        return new Metric(kind, read.workload() + " " + GroupConsumePhase.MEMBERS + " members", read.recordBytes());
    }

    private static String groupId(Side side, int round) {
        return "bench-group-" + side.letter() + "-" + round;
    }

    /** The latency rate is the same for both sides: a fraction of the lower of their peaks. */
    private double latencyRate() {
        Metric peak = LATENCY_SHAPE.metric(MetricKind.PRODUCE_THROUGHPUT);
        double lower = Math.min(scoreboard.median(peak, Side.BASELINE), scoreboard.median(peak, Side.CANDIDATE));
        return Math.floor(lower * plan.latencyLoad());
    }

    private Map<Side, LatencyDistribution> measureLatency(Map<Side, BrokerProcess> brokers, double rate)
            throws InterruptedException {
        // The fetch long-poll path at a steady rate is new to both brokers: one short unrecorded phase each.
        for (Side side : Side.values()) {
            LatencyPhase.measure(brokers.get(side), LATENCY_TOPIC, LATENCY_SHAPE.recordBytes(), rate,
                    plan.latencyWarmup().multipliedBy(2), plan.latencyWarmup());
        }
        Map<Side, List<LatencyDistribution>> perRound = new EnumMap<>(Side.class);
        rounds.run("latency", LATENCY_SHARE, round -> {
            for (Side side : Rounds.order(round)) {
                LatencyDistribution d = LatencyPhase.measure(brokers.get(side), LATENCY_TOPIC, LATENCY_SHAPE.recordBytes(),
                        rate, plan.latencyDuration(), plan.latencyWarmup());
                scoreboard.add(LATENCY_SHAPE.metric(MetricKind.LATENCY_P50), side, d.percentileMillis(0.50));
                scoreboard.add(LATENCY_SHAPE.metric(MetricKind.LATENCY_P99), side, d.percentileMillis(0.99));
                scoreboard.add(LATENCY_SHAPE.metric(MetricKind.LATENCY_P999), side, d.percentileMillis(0.999));
                perRound.computeIfAbsent(side, s -> new ArrayList<>()).add(d);
                rounds.log("round %d  latency %s at %,.0f/s  %s  p50 %.2f ms  p99 %.2f ms  p99.9 %.2f ms",
                        round, LATENCY_SHAPE.name(), rate, side.letter(), d.percentileMillis(0.5), d.percentileMillis(0.99),
                        d.percentileMillis(0.999));
            }
        });
        Map<Side, LatencyDistribution> merged = new EnumMap<>(Side.class);
        perRound.forEach((side, parts) -> merged.put(side, LatencyDistribution.merge(parts)));
        return merged;
    }
}
