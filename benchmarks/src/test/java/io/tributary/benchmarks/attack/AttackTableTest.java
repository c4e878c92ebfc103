package io.tributary.benchmarks.attack;

import io.tributary.benchmarks.harness.BrokerFlavor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AttackTableTest {
    @Test
    void aRowSaysWhatHappenedToTheBrokerAndTheGoodClients() {
        AttackResult survived = new AttackResult(BrokerFlavor.TRIBUTARY, "200 connections announcing 100 MB frames", true, false,
                64, 41, 98.84, 208.91, 500, 500, true, Map.of("frame announced", 200));
        AttackResult died = new AttackResult(BrokerFlavor.APACHE_KAFKA, "200 connections announcing 100 MB frames", false, true,
                -1, -1, 380.4, -1, 500, 0, false, Map.of("frame announced", 199, "connect or write failed", 1));

        String[] lines = AttackTable.markdown(List.of(died, survived)).split("\n");

        assertThat(lines).hasSize(4);
        assertThat(lines[0]).startsWith("| attack | broker |");
        assertThat(lines[2]).isEqualTo("| 200 connections announcing 100 MB frames | Apache Kafka 4.4 | died (OutOfMemoryError) | — | — "
                + "| 380.4 → — | 0 of 500 | no | connect or write failed: 1; frame announced: 199 |");
        assertThat(lines[3]).isEqualTo("| 200 connections announcing 100 MB frames | Tributary | running | 64 | 41 "
                + "| 98.8 → 208.9 | 500 of 500 | yes | frame announced: 200 |");
    }

    @Test
    void aBrokerThatLoggedAnOutOfMemoryErrorButRunsIsToldApartFromOneThatDied() {
        AttackResult limping = new AttackResult(BrokerFlavor.APACHE_KAFKA, "attack", true, true, 997, 990, 1, 2, 10, 3, false, Map.of());

        assertThat(AttackTable.markdown(List.of(limping))).contains("| running, logged OutOfMemoryError | 997 | 990 |");
    }
}
