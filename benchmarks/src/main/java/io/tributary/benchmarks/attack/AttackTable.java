package io.tributary.benchmarks.attack;

import io.tributary.benchmarks.harness.BrokerFlavor;
import io.tributary.benchmarks.harness.Tables;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The Markdown table of an attack run: one row per attack and broker. */
final class AttackTable {
    private static final List<String> HEADER = List.of("attack", "broker", "broker after the attack", "heap high-water (MiB)",
            "live heap at the end (MiB)", "good producer p99 idle → during (ms)", "good records acknowledged", "read back intact",
            "what the attacker met");

    private AttackTable() {
    }

    static String markdown(List<AttackResult> results) {
        return Tables.markdown(HEADER, results.stream().map(AttackTable::row).toList());
    }

    private static List<String> row(AttackResult result) {
        return List.of(result.attack(), result.flavor().displayName(), state(result), mib(result.heapPeakMiB()),
                mib(result.liveMiB()),
                String.format("%.1f → %s", result.p99WithoutMs(), result.p99DuringMs() < 0 ? "—" : String.format("%.1f", result.p99DuringMs())),
                result.goodSent() + " of " + result.goodRecords(), result.goodIntact() ? "yes" : "no", outcomes(result.outcomes()));
    }

    private static String mib(long mib) {
        return mib < 0 ? "—" : Long.toString(mib);
    }

    private static String state(AttackResult result) {
        if (!result.aliveAfter()) {
            return result.outOfMemory() ? "died (OutOfMemoryError)" : "died";
        }
        return result.outOfMemory() ? "running, logged OutOfMemoryError" : "running";
    }

    private static String outcomes(Map<String, Integer> outcomes) {
        return outcomes.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(entry -> String.format("%s: %,d", entry.getKey(), entry.getValue()))
                .collect(Collectors.joining("; "));
    }

    /** The brokers in the order each attack runs them: Kafka first, as the baseline. */
    static List<BrokerFlavor> brokers() {
        return List.of(BrokerFlavor.APACHE_KAFKA, BrokerFlavor.TRIBUTARY);
    }
}
