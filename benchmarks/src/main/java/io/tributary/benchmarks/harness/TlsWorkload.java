package io.tributary.benchmarks.harness;

import io.tributary.testkit.FreePorts;
import io.tributary.testkit.TestCertificates;
import org.apache.kafka.common.security.auth.SecurityProtocol;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code benchmarks/run --only=tls}: what TLS costs each broker. Apache Kafka (A) and the candidate (B) each run alone in
 * their own JVM, as in the whole run, but with two listeners: PLAINTEXT and SSL (TLS with the JDK's and kafka-clients'
 * defaults on both sides, no client certificates; the certificates are made at run time by keytool). So each broker's
 * two listeners are compared inside one process, with the same JIT, page cache and data. The same load goes through
 * each listener: one producer ({@link #PRODUCE}) for a fixed time, and one consumer reading the whole consume topic
 * ({@link #CONSUME}, written once at set-up over PLAINTEXT) from its beginning. The topic stays inside one segment, the
 * active one ({@link #SEGMENT_BYTES}), so that over PLAINTEXT both brokers send it with sendfile.
 *
 * <p>After an unrecorded pass over every broker and listener, each section (produce, then consume) runs its rounds in
 * the order A PLAINTEXT, A SSL, B PLAINTEXT, B SSL, reversed every other round; the report takes medians.
 */
public final class TlsWorkload {
    public static final String NAME = "tls";
    static final ProduceWorkload PRODUCE = new ProduceWorkload(1024, "all", 1);
    static final ProduceWorkload CONSUME = new ProduceWorkload(1024, "1", 1);
    static final String CONSUME_TOPIC = "tls-consume";
    /** 1 GiB, the same on both sides: the consume topic (at most some 530 MB) never leaves its active segment. */
    static final long SEGMENT_BYTES = 1L << 30;
    static final List<SecurityProtocol> LISTENERS = List.of(SecurityProtocol.PLAINTEXT, SecurityProtocol.SSL);
    /** By which fraction of the time budget each section must end (see {@link RoundBudget}). */
    private static final double PRODUCE_SHARE = 0.5;
    private static final double CONSUME_SHARE = 0.95;

    /**
     * @param rounds          how often each broker and listener is measured per section
     * @param warmUp          length of the unrecorded produce phase per broker and listener
     * @param produceDuration length of one timed produce phase
     * @param consumeRecords  records of the consume topic, all read by every consume phase
     * @param timeBudget      what the run aims at: sections cut rounds (never below two) to end within it
     * @param timeLimit       the hard bound: past it the run is stopped and the brokers killed, with no result
     */
    record Plan(int rounds, Duration warmUp, Duration produceDuration, long consumeRecords, String brokerHeap,
                Duration timeBudget, Duration timeLimit) {
        /** About three minutes on a quiet 2-core machine. */
        static Plan full() {
            return new Plan(5, Duration.ofMillis(1500), Duration.ofMillis(1500), 500_000, "1g", Duration.ofSeconds(360),
                    Duration.ofSeconds(560));
        }

        /** Two short rounds, for development. */
        static Plan quick() {
            return new Plan(2, Duration.ofMillis(500), Duration.ofMillis(600), 100_000, "1g", Duration.ofSeconds(120),
                    Duration.ofSeconds(420));
        }

        /** Longest the untimed set-up and a consume phase may take before the run is failed. */
        Duration phaseLimit() {
            return Duration.ofSeconds(120);
        }
    }

    /** One measurement slot of a round: a broker and the listener its load goes through. */
    record Slot(Side side, SecurityProtocol listener) {
    }

    private final Plan plan;
    private final Map<Side, BrokerFlavor> flavors;
    private final Path workDir;
    private final ChildProcesses children;
    private final ProcStat procStat;
    private final Rounds rounds;
    private final Scoreboard scoreboard = new Scoreboard();

    TlsWorkload(Plan plan, BrokerFlavor candidate, Path workDir, ChildProcesses children, ProcStat procStat, PrintStream progress) {
        this.plan = plan;
        this.flavors = new EnumMap<>(Map.of(Side.BASELINE, BrokerFlavor.APACHE_KAFKA, Side.CANDIDATE, candidate));
        this.workDir = workDir.toAbsolutePath();
        this.children = children;
        this.procStat = procStat;
        this.rounds = new Rounds(plan.rounds(), new RoundBudget(System::nanoTime, plan.timeBudget()), progress);
    }

    /** A then B, PLAINTEXT then SSL, in odd rounds; exactly the reverse in even rounds. */
    static List<Slot> order(int round) {
        List<Slot> slots = new ArrayList<>();
        for (Side side : Side.values()) {
            LISTENERS.forEach(listener -> slots.add(new Slot(side, listener)));
        }
        if (round % 2 == 0) {
            Collections.reverse(slots);
        }
        return slots;
    }

    /** The measure of {@code kind} (produce or consume) whichever the listener, e.g. "produce 1KiB acks=all 1p". */
    static Metric measure(MetricKind kind) {
        return switch (kind) {
            case PRODUCE_THROUGHPUT, PRODUCE_CPU -> PRODUCE.metric(kind);
            case CONSUME_THROUGHPUT, CONSUME_CPU -> CONSUME.readMetric(kind);
            default -> throw new IllegalArgumentException("the TLS workload does not measure " + kind);
        };
    }

    /** The measure of {@code kind} through {@code listener}, e.g. "produce 1KiB acks=all 1p SSL". */
    static Metric metric(MetricKind kind, SecurityProtocol listener) {
        Metric measure = measure(kind);
        return new Metric(kind, measure.workload() + " " + listener.name, measure.recordBytes());
    }

    TlsResult run() throws IOException, InterruptedException {
        Directories.deleteRecursively(workDir);
        TestCertificates certificates = TestCertificates.create(workDir.resolve("certificates"));
        BrokerSettings settings = new BrokerSettings(SEGMENT_BYTES, 1).with(certificates.brokerSettings(""));
        Map<Side, BrokerProcess> processes = new EnumMap<>(Side.class);
        Map<Slot, Broker> listeners = new HashMap<>();
        Map<Slot, ProducePhase> producers = new HashMap<>();
        try {
            for (Side side : Side.values()) {
                int sslPort = FreePorts.next();
                Path dir = Files.createDirectories(workDir.resolve(side.letter()));
                BrokerProcess process = BrokerProcess.start(side.label(flavors.get(side)),
                        flavors.get(side).launch(dir, settings, OptionalInt.of(sslPort)), plan.brokerHeap(), dir, children, procStat);
                processes.put(side, process);
                listeners.put(new Slot(side, SecurityProtocol.PLAINTEXT), process);
                listeners.put(new Slot(side, SecurityProtocol.SSL), new TlsListener(process, "127.0.0.1:" + sslPort,
                        certificates.clientSettings(SecurityProtocol.SSL.name, false)));
            }
            for (Side side : Side.values()) {
                BrokerProcess broker = processes.get(side);
                broker.awaitReady(Duration.ofSeconds(150));
                Topics.create(broker, Map.of(PRODUCE.topic(), PRODUCE.partitions(), CONSUME_TOPIC, CONSUME.partitions()), 1);
                for (SecurityProtocol listener : LISTENERS) {
                    Slot slot = new Slot(side, listener);
                    producers.put(slot, new ProducePhase(listeners.get(slot)));
                }
                producers.get(new Slot(side, SecurityProtocol.PLAINTEXT)).exactly(CONSUME_TOPIC, CONSUME.recordBytes(),
                        plan.consumeRecords(), plan.phaseLimit());
                rounds.log("%s ready (pid %d), %,d records of %d B written", broker.name(), broker.pid(), plan.consumeRecords(),
                        CONSUME.recordBytes());
            }
            for (Slot slot : order(1)) {
                producers.get(slot).forDuration(PRODUCE, plan.warmUp());
                ConsumePhase.read(listeners.get(slot), CONSUME_TOPIC, plan.consumeRecords(), plan.phaseLimit());
            }
            rounds.log("warmed up");
            rounds.run("produce", PRODUCE_SHARE, round -> {
                for (Slot slot : order(round)) {
                    PhaseMeasurement m = producers.get(slot).forDuration(PRODUCE, plan.produceDuration());
                    record(slot, MetricKind.PRODUCE_THROUGHPUT, MetricKind.PRODUCE_CPU, m);
                    rounds.report(round, metric(MetricKind.PRODUCE_THROUGHPUT, slot.listener()).label(), slot.side(), m);
                }
            });
            rounds.run("consume", CONSUME_SHARE, round -> {
                for (Slot slot : order(round)) {
                    PhaseMeasurement m = ConsumePhase.read(listeners.get(slot), CONSUME_TOPIC, plan.consumeRecords(),
                            plan.phaseLimit());
                    record(slot, MetricKind.CONSUME_THROUGHPUT, MetricKind.CONSUME_CPU, m);
                    rounds.report(round, metric(MetricKind.CONSUME_THROUGHPUT, slot.listener()).label(), slot.side(), m);
                }
            });
            return new TlsResult(flavors, scoreboard.comparisons());
        } finally {
            producers.values().forEach(ProducePhase::close);
            processes.values().forEach(BrokerProcess::close);
            for (Side side : Side.values()) {
                Directories.deleteRecursively(workDir.resolve(side.letter()).resolve(BrokerFlavor.DATA_DIR));
            }
        }
    }

    private void record(Slot slot, MetricKind throughput, MetricKind cpu, PhaseMeasurement m) {
        scoreboard.add(metric(throughput, slot.listener()), slot.side(), m.recordsPerSecond());
        scoreboard.add(metric(cpu, slot.listener()), slot.side(), m.cpuSecondsPerMillionRecords());
    }
}
