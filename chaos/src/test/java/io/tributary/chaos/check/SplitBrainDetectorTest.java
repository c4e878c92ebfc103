package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import io.tributary.chaos.process.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SplitBrainDetectorTest {
    @TempDir
    Path dir;

    private Path log(String name, String... lines) throws Exception {
        Path file = dir.resolve(name);
        Files.write(file, List.of(lines));
        return file;
    }

    private static String start(int broker) {
        return ChildJvm.START_MARKER + "broker " + broker;
    }

    private static String leader(String partition, int epoch) {
        return "2026-12-01 16:09:21,189 INFO  [tributary-cluster-events] Partition: " + partition + ": leader at epoch " + epoch
                + ", isr [1, 2, 3], log end 0, high watermark 0";
    }

    @Test
    void leadersAtRisingEpochsAreClean() throws Exception {
        SplitBrainDetector.Findings findings = SplitBrainDetector.check(Map.of(
                1, log("b1", start(1), leader("chaos-0", 0), start(1), leader("chaos-0", 2)),
                2, log("b2", start(2), leader("chaos-0", 1), leader("__consumer_offsets-0", 1))), "chaos");
        assertThat(findings.clean()).as(findings.toString()).isTrue();
        assertThat(findings.claims()).isEqualTo(3);
    }

    @Test
    void twoBrokersAtOneEpochAreASplitBrain() throws Exception {
        SplitBrainDetector.Findings findings = SplitBrainDetector.check(Map.of(
                1, log("b1", start(1), leader("chaos-1", 3)),
                2, log("b2", start(2), leader("chaos-1", 3))), "chaos");
        assertThat(findings.splitBrains()).isEqualTo(1);
    }

    @Test
    void aRestartedBrokerLeadingAtItsOldEpochIsFound() throws Exception {
        SplitBrainDetector.Findings findings = SplitBrainDetector.check(Map.of(
                3, log("b3", start(3), leader("chaos-1", 0), start(3), leader("chaos-1", 0))), "chaos");
        assertThat(findings.staleEpochLeaderships()).isEqualTo(1);
        assertThat(findings.splitBrains()).isZero();
    }
}
