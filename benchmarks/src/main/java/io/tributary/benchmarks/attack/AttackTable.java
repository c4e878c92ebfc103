package io.tributary.benchmarks.attack;

import io.tributary.benchmarks.harness.BrokerFlavor;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The Markdown table of an attack run: one row per attack and broker. */
final class AttackTable {
    private AttackTable() {
    }

    static String markdown(List<AttackResult> results) {
        StringBuilder table = new StringBuilder()
                .append("| attack | broker | broker after the attack | heap high-water (MiB) | good producer p99 idle → during (ms) ")
                .append("| good records acknowledged | read back intact | what the attacker met |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (AttackResult result : results) {
            table.append("| ").append(result.attack())
                    .append(" | ").append(result.flavor().displayName())
                    .append(" | ").append(state(result))
                    .append(" | ").append(result.heapPeakMiB() < 0 ? "—" : Long.toString(result.heapPeakMiB()))
                    .append(" | ").append(String.format("%.1f → %s", result.p99WithoutMs(),
                            result.p99DuringMs() < 0 ? "—" : String.format("%.1f", result.p99DuringMs())))
                    .append(" | ").append(result.goodSent()).append(" of ").append(result.goodRecords())
                    .append(" | ").append(result.goodIntact() ? "yes" : "no")
                    .append(" | ").append(outcomes(result.outcomes()))
                    .append(" |\n");
        }
        return table.toString();
    }

    private static String state(AttackResult result) {
        if (!result.aliveAfter()) {
            return result.outOfMemory() ? "died (OutOfMemoryError)" : "died";
        }
        return result.outOfMemory() ? "running, logged OutOfMemoryError" : "running";
    }

    private static String outcomes(Map<String, Integer> outcomes) {
        return outcomes.entrySet().stream()
                .map(entry -> String.format("%s: %,d", entry.getKey(), entry.getValue()))
                .collect(Collectors.joining("; "));
    }

    /** The brokers in the order each attack runs them: Kafka first, as the baseline. */
    static List<BrokerFlavor> brokers() {
        return List.of(BrokerFlavor.APACHE_KAFKA, BrokerFlavor.TRIBUTARY);
    }
}
