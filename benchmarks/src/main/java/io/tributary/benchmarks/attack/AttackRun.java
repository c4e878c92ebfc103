package io.tributary.benchmarks.attack;

import io.tributary.benchmarks.harness.BrokerFlavor;
import io.tributary.benchmarks.harness.BrokerProcess;
import io.tributary.benchmarks.harness.BrokerSettings;
import io.tributary.benchmarks.harness.ChildProcesses;
import io.tributary.benchmarks.harness.ProcStat;
import io.tributary.testkit.attack.Attack;
import io.tributary.testkit.attack.GoodTraffic;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One attack on one fresh broker in a child JVM ({@link #HEAP}, the heap Kafka's start script gives a broker):
 * good traffic on the idle broker first, then the attack with good traffic beside it, the broker's heap
 * high-water mark watched meanwhile.
 */
final class AttackRun {
    static final String HEAP = "1g";
    static final int GOOD_RECORDS = 500;
    private static final long GOOD_PAUSE_MS = 10;
    private static final Duration GOOD_TIMEOUT = Duration.ofSeconds(90);
    /** How long an attack of a fixed size may take beyond the good traffic (100,000 frames, reconnecting, on Kafka). */
    private static final Duration ATTACK_TIMEOUT = Duration.ofSeconds(180);

    private final Path workDir;
    private final ChildProcesses children;
    private final PrintStream progress;

    AttackRun(Path workDir, ChildProcesses children, PrintStream progress) {
        this.workDir = workDir.toAbsolutePath(); // the brokers run in their own directories
        this.children = children;
        this.progress = progress;
    }

    AttackResult run(AttackScenario scenario, BrokerFlavor flavor) throws Exception {
        Path dir = workDir.resolve(scenario.name() + "-" + flavor.optionName());
        BrokerProcess broker = BrokerProcess.start(flavor.displayName(), flavor.launch(dir, BrokerSettings.standard()), HEAP, dir,
                children, ProcStat.forThisMachine());
        try (broker) {
            broker.awaitReady(Duration.ofSeconds(180));
            String bootstrap = broker.bootstrapServers();
            for (String topic : List.of("quiet", AttackScenario.GOOD_TOPIC, AttackScenario.FLOOD_TOPIC)) {
                GoodTraffic.createTopic(bootstrap, topic);
            }
            try (HeapWatch heap = HeapWatch.attach(broker.pid())) {
                GoodTraffic.Result without = GoodTraffic.start(bootstrap, "quiet", GOOD_RECORDS, GOOD_PAUSE_MS).finish(GOOD_TIMEOUT);
                heap.resetPeak();
                progress.printf("%s on %s: attacking%n", scenario.name(), flavor.displayName());
                long started = System.nanoTime();
                GoodTraffic.Result during;
                Map<String, Integer> outcomes;
                String description;
                long liveMiB;
                try (Attack attack = scenario.attack().get()) {
                    description = attack.description();
                    int colon = bootstrap.lastIndexOf(':');
                    attack.start(bootstrap.substring(0, colon), Integer.parseInt(bootstrap.substring(colon + 1)));
                    during = GoodTraffic.start(bootstrap, AttackScenario.GOOD_TOPIC, GOOD_RECORDS, GOOD_PAUSE_MS).finish(GOOD_TIMEOUT);
                    attack.awaitDone(ATTACK_TIMEOUT);
                    long heldMs = (System.nanoTime() - started) / 1_000_000;
                    Thread.sleep(Math.max(0, scenario.holdAtLeast().toMillis() - heldMs));
                    liveMiB = broker.isAlive() ? heap.liveBytesAfterFullGc() >> 20 : -1;
                    attack.close();
                    outcomes = attack.outcomes();
                }
                boolean alive = broker.isAlive();
                long peakMiB = alive ? heap.peakBytes() >> 20 : -1;
                boolean intact = during.failures().isEmpty() && during.consumed().equals(GoodTraffic.expected(GOOD_RECORDS));
                return new AttackResult(flavor, description, alive, loggedOutOfMemory(broker.logFile()),
                        peakMiB, liveMiB, without.p99Micros() / 1000.0, during.p99Micros() / 1000.0, GOOD_RECORDS, during.sent(), intact,
                        outcomes);
            }
        }
    }

    private static boolean loggedOutOfMemory(Path log) throws IOException {
        try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.anyMatch(line -> line.contains("OutOfMemoryError"));
        }
    }
}
