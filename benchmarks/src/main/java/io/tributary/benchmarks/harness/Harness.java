package io.tributary.benchmarks.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One side-by-side run: starts both brokers in child JVMs, creates the same topics on both, warms
 * both up with an untimed pass, then runs every phase once per round on each side, alternating
 * A B A B. Which side goes first flips every round (A B, then B A), so that neither always runs
 * on the client JIT the other warmed or in the page-cache write-back the other caused. Phases, in
 * order: the produce grid, consume from the page cache, fixed-rate end-to-end latency (its rate
 * comes from the produce results).
 */
public final class Harness {
    static final String CONSUME_TOPIC = "consume-source";
    static final String LATENCY_TOPIC = "latency";
    /** The consume phase's shape: one partition of 100 B records. */
    static final ProduceWorkload CONSUME_SHAPE = new ProduceWorkload(100, "1", 1);
    /** The latency phase's shape: its rate is a fraction of this workload's measured peak. */
    static final ProduceWorkload LATENCY_SHAPE = new ProduceWorkload(100, "all", 1);
    private static final Metric IDLE_CPU = new Metric(MetricKind.IDLE_CPU, "idle", 0);
    /** By which fraction of the time limit each section must end; the rest is for the report and shutdown. */
    private static final double PRODUCE_SHARE = 0.60;
    private static final double CONSUME_SHARE = 0.68;
    private static final double LATENCY_SHARE = 0.90;

    private final RunPlan plan;
    private final BrokerSettings settings;
    private final Map<Side, BrokerFlavor> flavors;
    private final Path workDir;
    private final ChildProcesses children;
    private final ProcStat procStat;
    private final RoundBudget budget;
    private final PrintStream progress;
    private final Scoreboard scoreboard = new Scoreboard();

    public Harness(RunPlan plan, BrokerSettings settings, Map<Side, BrokerFlavor> flavors, Path workDir,
                   ChildProcesses children, ProcStat procStat, RoundBudget budget, PrintStream progress) {
        if (settings.replicationFactor() != 1) {
            // The hook for RF 3: start three BrokerProcesses per side, wrap them in one Broker that sums their CPU.
            throw new UnsupportedOperationException("replication factor " + settings.replicationFactor()
                    + " needs a three-broker cluster per side, which the harness does not start yet (cluster issue)");
        }
        this.plan = plan;
        this.settings = settings;
        this.flavors = new EnumMap<>(flavors);
        this.workDir = workDir.toAbsolutePath(); // the brokers run in their own directories
        this.children = children;
        this.procStat = procStat;
        this.budget = budget;
        this.progress = progress;
    }

    public RunResult run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        deleteRecursively(workDir);
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
                log("%s ready at %s (pid %d)", broker.name(), broker.bootstrapServers(), broker.pid());
            }
            warmUp(brokers, producers);
            measureIdle(brokers);
            measureProduce(producers);
            measureConsume(brokers);
            double rate = latencyRate();
            Map<Side, LatencyDistribution> latency = measureLatency(brokers, rate);
            return new RunResult(plan, settings, flavors, scoreboard.comparisons(), rate, latency,
                    Duration.ofNanos(System.nanoTime() - start));
        } finally {
            producers.values().forEach(ProducePhase::close);
            brokers.values().forEach(BrokerProcess::close);
            deleteData();
        }
    }

    /** A full run leaves some 20 GB of segments behind; only the broker logs are worth keeping. */
    private void deleteData() {
        for (Side side : Side.values()) {
            Path data = workDir.resolve(side.letter()).resolve(BrokerFlavor.DATA_DIR);
            try {
                deleteRecursively(data);
            } catch (IOException e) {
                progress.println("could not delete " + data + ": " + e);
            }
        }
    }

    /** Creates the topics and writes the consume topic once. */
    private void prepare(Broker broker, ProducePhase producer) throws InterruptedException {
        Map<String, Integer> topics = new LinkedHashMap<>();
        ProduceWorkload.grid().forEach(w -> topics.put(w.topic(), w.partitions()));
        topics.put(CONSUME_TOPIC, CONSUME_SHAPE.partitions());
        topics.put(LATENCY_TOPIC, LATENCY_SHAPE.partitions());
        Topics.create(broker, topics, settings.replicationFactor());
        producer.exactly(CONSUME_TOPIC, CONSUME_SHAPE.recordBytes(), plan.consumeRecords(), plan.phaseLimit());
    }

    /**
     * Unrecorded: a short pass over the produce grid (unless the plan has none) and one read of the
     * consume topic, so that round 1 runs on compiled code. The first read of a topic is the
     * slowest phase of all when cold.
     */
    private void warmUp(Map<Side, BrokerProcess> brokers, Map<Side, ProducePhase> producers) throws InterruptedException {
        for (Side side : Side.values()) {
            if (!plan.warmUpDuration().isZero()) {
                for (ProduceWorkload workload : ProduceWorkload.grid()) {
                    producers.get(side).forDuration(workload, plan.warmUpDuration());
                }
            }
            ConsumePhase.read(brokers.get(side), CONSUME_TOPIC, plan.consumeRecords(), plan.phaseLimit());
        }
        log("warmed up");
    }

    /**
     * Both brokers' CPU with no load at all (Kafka's KRaft controller, ZooKeeper sessions, timers):
     * it is part of every phase's CPU figure, so the report shows it on its own.
     */
    private void measureIdle(Map<Side, BrokerProcess> brokers) throws InterruptedException {
        Map<Side, Double> before = new EnumMap<>(Side.class);
        brokers.forEach((side, broker) -> before.put(side, broker.cpuSeconds()));
        Thread.sleep(plan.idleWindow().toMillis());
        double seconds = plan.idleWindow().toMillis() / 1000.0;
        brokers.forEach((side, broker) -> scoreboard.add(IDLE_CPU, side, (broker.cpuSeconds() - before.get(side)) / seconds));
    }

    private void measureProduce(Map<Side, ProducePhase> producers) throws InterruptedException {
        runRounds("produce", PRODUCE_SHARE, round -> {
            for (ProduceWorkload workload : ProduceWorkload.grid()) {
                for (Side side : order(round)) {
                    PhaseMeasurement m = producers.get(side).forDuration(workload, plan.produceDuration());
                    scoreboard.add(workload.metric(MetricKind.PRODUCE_THROUGHPUT), side, m.recordsPerSecond());
                    scoreboard.add(workload.metric(MetricKind.PRODUCE_CPU), side, m.cpuSecondsPerMillionRecords());
                    report(round, "produce " + workload.name(), side, m);
                }
            }
        });
    }

    private void measureConsume(Map<Side, BrokerProcess> brokers) throws InterruptedException {
        runRounds("consume", CONSUME_SHARE, round -> {
            for (Side side : order(round)) {
                PhaseMeasurement m = ConsumePhase.read(brokers.get(side), CONSUME_TOPIC, plan.consumeRecords(), plan.phaseLimit());
                scoreboard.add(CONSUME_SHAPE.readMetric(MetricKind.CONSUME_THROUGHPUT), side, m.recordsPerSecond());
                scoreboard.add(CONSUME_SHAPE.readMetric(MetricKind.CONSUME_CPU), side, m.cpuSecondsPerMillionRecords());
                report(round, "consume " + CONSUME_SHAPE.readMetric(MetricKind.CONSUME_THROUGHPUT).workload(), side, m);
            }
        });
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
        Map<Side, List<LatencyDistribution>> rounds = new EnumMap<>(Side.class);
        runRounds("latency", LATENCY_SHARE, round -> {
            for (Side side : order(round)) {
                LatencyDistribution d = LatencyPhase.measure(brokers.get(side), LATENCY_TOPIC, LATENCY_SHAPE.recordBytes(),
                        rate, plan.latencyDuration(), plan.latencyWarmup());
                scoreboard.add(LATENCY_SHAPE.metric(MetricKind.LATENCY_P50), side, d.percentileMillis(0.50));
                scoreboard.add(LATENCY_SHAPE.metric(MetricKind.LATENCY_P99), side, d.percentileMillis(0.99));
                scoreboard.add(LATENCY_SHAPE.metric(MetricKind.LATENCY_P999), side, d.percentileMillis(0.999));
                rounds.computeIfAbsent(side, s -> new ArrayList<>()).add(d);
                log("round %d  latency %s at %,.0f/s  %s  p50 %.2f ms  p99 %.2f ms  p99.9 %.2f ms",
                        round, LATENCY_SHAPE.name(), rate, side.letter(), d.percentileMillis(0.5), d.percentileMillis(0.99),
                        d.percentileMillis(0.999));
            }
        });
        Map<Side, LatencyDistribution> merged = new EnumMap<>(Side.class);
        rounds.forEach((side, parts) -> merged.put(side, LatencyDistribution.merge(parts)));
        return merged;
    }

    /** One round of a section; rounds are numbered from 1. */
    @FunctionalInterface
    private interface Round {
        void run(int round) throws InterruptedException;
    }

    /** Runs up to the plan's number of rounds, fewer if the time budget says the next would not fit. */
    private void runRounds(String section, double share, Round round) throws InterruptedException {
        int done = 0;
        Duration last = Duration.ZERO;
        while (done < plan.rounds() && budget.allowsAnother(done, last, share)) {
            long start = budget.now();
            round.run(done + 1);
            done++;
            last = Duration.ofNanos(budget.now() - start);
        }
        if (done < plan.rounds()) {
            log("%s: %d of %d rounds, the rest would not fit in the time limit", section, done, plan.rounds());
        }
    }

    /** A then B in odd rounds, B then A in even rounds. */
    static List<Side> order(int round) {
        return round % 2 == 1 ? List.of(Side.BASELINE, Side.CANDIDATE) : List.of(Side.CANDIDATE, Side.BASELINE);
    }

    private void report(int round, String phase, Side side, PhaseMeasurement m) {
        log("round %d  %-28s %s  %,11.0f records/s  %7.1f MB/s  broker %.3f CPU-s/1M",
                round, phase, side.letter(), m.recordsPerSecond(), m.megabytesPerSecond(), m.cpuSecondsPerMillionRecords());
    }

    /** A progress line, prefixed with the seconds since the run's time budget started. */
    private void log(String format, Object... args) {
        progress.printf(Locale.ROOT, "[%4ds] %s%n", budget.elapsed().toSeconds(), String.format(Locale.ROOT, format, args));
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
