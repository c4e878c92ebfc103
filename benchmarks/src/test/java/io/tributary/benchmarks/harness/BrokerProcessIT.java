package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The harness's plumbing against each broker in a child JVM: start, load, a consumer group, CPU accounting, stop. */
class BrokerProcessIT {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @ParameterizedTest
    @EnumSource(BrokerFlavor.class)
    void runsTheBrokerInAChildJvmThatTheWorkloadsReachAndCloseStops(BrokerFlavor flavor, @TempDir Path dir) throws Exception {
        BrokerLaunch launch = flavor.launch(dir, BrokerSettings.standard());
        ProcessHandle child;
        try (BrokerProcess broker = BrokerProcess.start(flavor.optionName(), launch, "512m", dir, new ChildProcesses(),
                ProcStat.forThisMachine())) {
            child = ProcessHandle.of(broker.pid()).orElseThrow();
            broker.awaitReady(LIMIT);
            double cpuAtStart = broker.cpuSeconds();
            Topics.create(broker, Map.of("it", 2), 1);

            try (ProducePhase producer = new ProducePhase(broker)) {
                producer.exactly("it", 100, 5_000, LIMIT);
            }
            PhaseMeasurement read = ConsumePhase.read(broker, "it", 5_000, LIMIT);

            assertThat(read.records()).isEqualTo(5_000);
            assertThat(read.bytes()).isEqualTo(5_000 * 100);

            Topics.create(broker, Map.of("group", 6), 1);
            try (ProducePhase producer = new ProducePhase(broker)) {
                producer.exactly("group", 100, 6_000, LIMIT);
            }
            PhaseMeasurement grouped = GroupConsumePhase.read(broker, "group", 100, "it-group", LIMIT);
            assertThat(grouped.records()).isEqualTo(6_000);
            assertThat(grouped.bytes()).isEqualTo(6_000 * 100);
            assertThat(broker.cpuSeconds()).isGreaterThan(cpuAtStart);

            Topics.create(broker, Map.of("latency", 1), 1);
            LatencyDistribution latency = LatencyPhase.measure(broker, "latency", 100, 2_000,
                    Duration.ofMillis(1000), Duration.ofMillis(250));
            assertThat(latency.count()).isEqualTo(1_500);
            assertThat(latency.percentileMillis(0)).isPositive();
            assertThat(latency.percentileMillis(0.99)).isGreaterThanOrEqualTo(latency.percentileMillis(0.5));
            assertThat(child.info().commandLine().orElse("")).contains("-Xms512m -Xmx512m");
        }
        assertThat(child.isAlive()).isFalse();
    }
}
