package io.tributary.chaos.soak;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import io.tributary.chaos.cluster.ClusterSettings;
import io.tributary.chaos.fault.FaultKind;
import io.tributary.chaos.scenario.ChaosRun;
import io.tributary.chaos.scenario.RunPlan;
import io.tributary.chaos.scenario.RunResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code chaos/run}: the mixed soak of issue 17. Every fault kind in a seeded random order on one
 * cluster, then the checks; writes the results table and exits 0 only if nothing was lost,
 * duplicated or diverged and every fault was recovered from in time.
 */
@Command(name = "chaos/run", mixinStandardHelpOptions = true,
        description = "Mixed fault soak against a 3-broker Tributary cluster in network namespaces (needs root).")
public final class SoakMain implements Callable<Integer> {
    @Option(names = "--faults", defaultValue = "200", description = "faults to inject (default: ${DEFAULT-VALUE})")
    int faults;

    @Option(names = "--session-timeout-ms", defaultValue = "18000",
            description = "the brokers' zookeeper.session.timeout.ms (default: ${DEFAULT-VALUE}, Kafka's default)")
    int sessionTimeoutMs;

    @Option(names = "--zookeeper-outage-seconds", defaultValue = "30", description = "how long ZooKeeper is unreachable (default: ${DEFAULT-VALUE})")
    int zookeeperOutageSeconds;

    @Option(names = "--rate", defaultValue = "500", description = "kafka-clients producer records per second (default: ${DEFAULT-VALUE})")
    int rate;

    @Option(names = "--max-minutes", defaultValue = "180", description = "no fault starts after this (default: ${DEFAULT-VALUE})")
    int maxMinutes;

    @Option(names = "--seed", defaultValue = "17", description = "random seed for the order and targets (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--dir", defaultValue = "chaos/target/soak", description = "data and logs (default: ${DEFAULT-VALUE}; emptied first)")
    Path dir;

    @Option(names = "--results", defaultValue = "chaos/target/soak-results.md", description = "the results table (default: ${DEFAULT-VALUE})")
    Path results;

    @Option(names = "--kafkajs", defaultValue = "clients/js", description = "clients/js with node_modules (default: ${DEFAULT-VALUE})")
    Path kafkajs;

    @Option(names = "--revision", defaultValue = "unknown", description = "the commit under test, for the table")
    String revision;

    @Option(names = "--command", defaultValue = "chaos/run", description = "the command line, for the table")
    String command;

    public static void main(String[] args) {
        System.exit(new CommandLine(new SoakMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        Files.createDirectories(dir);
        RunPlan plan = new RunPlan(ClusterSettings.standard(sessionTimeoutMs), kafkajs.toAbsolutePath(),
                Duration.ofSeconds(zookeeperOutageSeconds), rate, Duration.ofMinutes(maxMinutes), seed);
        List<FaultKind> order = ChaosRun.mixed(Arrays.asList(FaultKind.values()), faults, seed);
        String started = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        RunResult result = new ChaosRun(dir.toAbsolutePath(), plan).run(order);
        String table = ResultsTable.markdown(result, command, revision, started);
        Files.createDirectories(results.toAbsolutePath().getParent());
        Files.writeString(results, table);
        System.out.println(result.summary());
        System.out.println(table);
        System.out.println("results in " + results + (result.clean() ? "" : "; THE RUN FOUND VIOLATIONS"));
        return result.clean() ? 0 : 1;
    }
}
