package io.tributary.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.time.Duration;
import java.util.List;
import io.tributary.chaos.cluster.ClusterSettings;
import io.tributary.chaos.fault.FaultKind;
import io.tributary.chaos.scenario.ChaosRun;
import io.tributary.chaos.scenario.RunPlan;
import io.tributary.chaos.scenario.RunResult;
import org.assertj.core.api.SoftAssertions;

/** Runs a scenario with the CI settings and asserts every promise of issue 17 on its result. */
final class ChaosScenarios {
    /** Short, so a test's faults fit CI's time; the soak uses the default 18000. */
    static final int SESSION_TIMEOUT_MS = 6_000;
    private static final Path CLIENTS = Path.of(System.getProperty("chaos.clients.js", "../clients/js")).toAbsolutePath().normalize();

    private ChaosScenarios() {
    }

    /**
     * Runs in {@code target/chaos-runs/<name>}, which stays for reading the brokers' logs after a
     * failure (the next run of the same test replaces it).
     */
    static RunResult run(String name, List<FaultKind> faults, long seed) throws Exception {
        Path dir = Path.of("target", "chaos-runs", name).toAbsolutePath();
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        Files.createDirectories(dir);
        RunPlan plan = new RunPlan(ClusterSettings.standard(SESSION_TIMEOUT_MS), CLIENTS, Duration.ofSeconds(30), 1_000,
                Duration.ofMinutes(10), seed);
        return new ChaosRun(dir, plan).run(faults);
    }

    /** Nothing acknowledged lost, moved or duplicated; identical replicas; no split brain; only retriable errors; quick recovery. */
    static void assertSurvived(RunResult result) {
        String summary = result.summary();
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(result.acks().acknowledged()).as("acknowledged records (sanity)").isGreaterThan(0);
        softly.assertThat(result.acks().lost()).as("acknowledged records lost\n" + summary).isZero();
        softly.assertThat(result.acks().moved()).as("acknowledged records not at their acknowledged offset\n" + summary).isZero();
        softly.assertThat(result.acks().duplicated()).as("records stored twice\n" + summary).isZero();
        softly.assertThat(result.acks().outOfOrder()).as("records out of send order\n" + summary).isZero();
        softly.assertThat(result.acks().neverSent()).as("records nobody sent\n" + summary).isZero();
        softly.assertThat(result.replicas().divergentPartitions()).as("partitions with divergent replicas\n" + summary).isZero();
        softly.assertThat(result.replicas().epochRegressions()).as("leader epochs going down in a log\n" + summary).isZero();
        softly.assertThat(result.leadership().splitBrains()).as("two leaders in one epoch\n" + summary).isZero();
        softly.assertThat(result.leadership().staleEpochLeaderships()).as("leading at an epoch from before a restart\n" + summary).isZero();
        softly.assertThat(result.nonRetriableErrors()).as("non-retriable producer errors\n" + summary).isEmpty();
        softly.assertThat(result.groupMissed()).as("acknowledged records the group never read\n" + summary).isZero();
        softly.assertThat(result.slowRecoveries()).as("faults after which a partition was not served again, or paused, for "
                + "longer than " + result.settings().recoveryBound() + " (times per partition below)\n" + summary).isEmpty();
        softly.assertAll();
        assertThat(result.clean()).isTrue();
    }
}
