package io.tributary.benchmarks.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code benchmarks/run --only=idle-fetch}: what a consumer idling on {@value #PARTITIONS} partitions costs the
 * broker, in CPU-seconds per second, on Apache Kafka (A), the candidate (B) and the candidate with incremental
 * fetch sessions turned off ({@code max.incremental.fetch.session.cache.slots=0}, every fetch a full one, as
 * Tributary was before KIP-227). Each broker runs alone in its own JVM with the run's standard settings and one
 * topic of {@value #PARTITIONS} partitions, no records. Every round measures each broker in turn (the order rotates
 * from round to round) twice: with no client at all, then with one consumer assigned every partition at its end
 * and polling all the time (kafka-clients defaults: {@code fetch.max.wait.ms=500}, {@code fetch.min.bytes=1}), after
 * a warm-up that lets it open its session. The report takes medians over the rounds.
 */
public final class IdleFetchWorkload {
    public static final String NAME = "idle-fetch";
    static final String TOPIC = "idle-fetch";
    static final int PARTITIONS = 1000;
    static final String SESSION_SLOTS = "max.incremental.fetch.session.cache.slots";
    private static final Duration POLL = Duration.ofMillis(100);

    /**
     * @param rounds         how often each broker is measured
     * @param idleWindow     how long the broker's CPU is read with no client
     * @param warmUp         how long the consumer polls before its window (it opens its session then)
     * @param consumerWindow how long the broker's CPU is read while the consumer polls
     */
    record Plan(int rounds, Duration idleWindow, Duration warmUp, Duration consumerWindow, String brokerHeap, Duration timeLimit) {
        /** About four minutes on 2 cores. */
        static Plan full() {
            return new Plan(3, Duration.ofSeconds(5), Duration.ofSeconds(3), Duration.ofSeconds(10), "1g", Duration.ofSeconds(560));
        }

        /** About two minutes, for development. */
        static Plan quick() {
            return new Plan(2, Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(4), "1g", Duration.ofSeconds(420));
        }
    }

    /**
     * One broker's medians: CPU-seconds per second alone and with the idle consumer, and the bytes per second the
     * consumer sent and received (its own network metrics: requests and responses, headers included).
     */
    record Row(String broker, double idleCpu, double withConsumerCpu, double bytesSent, double bytesReceived) {
        /** What the consumer adds. */
        double consumerCpu() {
            return withConsumerCpu - idleCpu;
        }
    }

    private final Plan plan;
    private final Map<String, Contender> brokers;
    private final Path workDir;
    private final ChildProcesses children;
    private final ProcStat procStat;
    private final PrintStream progress;

    /** A broker of the comparison: its flavor and settings. */
    private record Contender(BrokerFlavor flavor, BrokerSettings settings) {
    }

    IdleFetchWorkload(Plan plan, BrokerFlavor candidate, Path workDir, ChildProcesses children, ProcStat procStat,
                      PrintStream progress) {
        this.plan = plan;
        BrokerSettings standard = BrokerSettings.standard();
        this.brokers = new LinkedHashMap<>();
        brokers.put(Side.BASELINE.label(BrokerFlavor.APACHE_KAFKA), new Contender(BrokerFlavor.APACHE_KAFKA, standard));
        brokers.put(Side.CANDIDATE.label(candidate), new Contender(candidate, standard));
        brokers.put(candidate.displayName() + ", " + SESSION_SLOTS + "=0 (B')",
                new Contender(candidate, standard.with(SESSION_SLOTS, "0")));
        this.workDir = workDir.toAbsolutePath();
        this.children = children;
        this.procStat = procStat;
        this.progress = progress;
    }

    /** The medians per broker, in the order A, B, B'. */
    List<Row> run() throws IOException, InterruptedException {
        Directories.deleteRecursively(workDir);
        Map<String, BrokerProcess> started = new LinkedHashMap<>();
        try {
            int index = 0;
            for (Map.Entry<String, Contender> broker : brokers.entrySet()) {
                Path dir = Files.createDirectories(workDir.resolve("broker-" + index++));
                BrokerLaunch launch = broker.getValue().flavor().launch(dir, broker.getValue().settings());
                started.put(broker.getKey(), BrokerProcess.start(broker.getKey(), launch, plan.brokerHeap(), dir, children, procStat));
            }
            for (BrokerProcess broker : started.values()) {
                broker.awaitReady(Duration.ofSeconds(150));
                Topics.create(broker, Map.of(TOPIC, PARTITIONS), 1);
                log("%s ready, %d partitions created", broker.name(), PARTITIONS);
            }
            Map<String, List<Row>> measured = new LinkedHashMap<>();
            List<String> names = new ArrayList<>(started.keySet());
            for (int round = 1; round <= plan.rounds(); round++) {
                for (int i = 0; i < names.size(); i++) {
                    String name = names.get((i + round - 1) % names.size());
                    Row row = measure(name, started.get(name));
                    measured.computeIfAbsent(name, n -> new ArrayList<>()).add(row);
                    log("round %d  %-60s alone %.4f CPU-s/s  with the idle consumer %.4f CPU-s/s, %,.0f B/s sent, %,.0f B/s "
                            + "received", round, name, row.idleCpu(), row.withConsumerCpu(), row.bytesSent(), row.bytesReceived());
                }
            }
            return names.stream().map(name -> medians(name, measured.get(name))).toList();
        } finally {
            started.values().forEach(BrokerProcess::close);
        }
    }

    private static Row medians(String name, List<Row> rounds) {
        return new Row(name, Statistics.median(rounds.stream().map(Row::idleCpu).toList()),
                Statistics.median(rounds.stream().map(Row::withConsumerCpu).toList()),
                Statistics.median(rounds.stream().map(Row::bytesSent).toList()),
                Statistics.median(rounds.stream().map(Row::bytesReceived).toList()));
    }

    /**
     * One round of one broker: its CPU alone, then while one consumer, assigned every partition at its end, polls
     * without pause, and that consumer's traffic.
     */
    private Row measure(String name, BrokerProcess broker) throws InterruptedException {
        double alone = cpuPerSecond(broker, plan.idleWindow(), () -> { });
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(ClientSettings.consumer(broker))) {
            List<TopicPartition> partitions = ConsumePhase.partitionsOf(consumer, TOPIC, Duration.ofSeconds(60));
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            pollFor(consumer, plan.warmUp());
            double sentBefore = networkTotal(consumer, "outgoing-byte-total");
            double receivedBefore = networkTotal(consumer, "incoming-byte-total");
            long start = System.nanoTime();
            double withConsumer = cpuPerSecond(broker, plan.consumerWindow(), () -> pollFor(consumer, plan.consumerWindow()));
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Row(name, alone, withConsumer, (networkTotal(consumer, "outgoing-byte-total") - sentBefore) / seconds,
                    (networkTotal(consumer, "incoming-byte-total") - receivedBefore) / seconds);
        }
    }

    /** A total of the consumer's own network metrics (group consumer-metrics: every connection it has). */
    private static double networkTotal(KafkaConsumer<byte[], byte[]> consumer, String name) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("consumer-metrics") && e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow(() -> new IllegalStateException("the consumer has no metric " + name));
    }

    private static void pollFor(KafkaConsumer<byte[], byte[]> consumer, Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < end) {
            if (!consumer.poll(POLL).isEmpty()) {
                throw new IllegalStateException("the idle topic " + TOPIC + " got records");
            }
        }
    }

    /** CPU-seconds per second of {@code broker} over {@code window}, spent running {@code during} (or waiting). */
    private static double cpuPerSecond(Broker broker, Duration window, Runnable during) throws InterruptedException {
        double before = broker.cpuSeconds();
        long start = System.nanoTime();
        during.run();
        long left = start + window.toNanos() - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
        return (broker.cpuSeconds() - before) / ((System.nanoTime() - start) / 1e9);
    }

    private void log(String format, Object... args) {
        progress.printf(Locale.ROOT, "%s%n", String.format(Locale.ROOT, format, args));
    }
}
