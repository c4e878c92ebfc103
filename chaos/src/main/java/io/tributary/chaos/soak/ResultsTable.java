package io.tributary.chaos.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.tributary.chaos.fault.FaultKind;
import io.tributary.chaos.scenario.FaultOutcome;
import io.tributary.chaos.scenario.RunResult;

/** The soak's results as the Markdown tables of docs/reliability.md. */
final class ResultsTable {
    private ResultsTable() {
    }

    static String markdown(RunResult result, String command, String revision, String when) {
        StringBuilder out = new StringBuilder();
        out.append("Command: `").append(command).append("`  \n");
        out.append("Revision: ").append(revision).append(", run ").append(when).append(", ")
                .append(minutes(result.elapsed())).append(", seed ").append(result.seed()).append(", zookeeper.session.timeout.ms=")
                .append(result.settings().sessionTimeoutMs()).append("\n\n");
        out.append("| fault kind | injected | time to recover leadership, median | max | longest pause until healthy, max |\n"
                + "|---|---:|---:|---:|---:|\n");
        Map<FaultKind, List<FaultOutcome>> byKind = new EnumMap<>(FaultKind.class);
        for (FaultOutcome outcome : result.faults()) {
            byKind.computeIfAbsent(outcome.fault().kind(), k -> new ArrayList<>()).add(outcome);
        }
        byKind.forEach((kind, outcomes) -> out.append("| ").append(kind.description()).append(" | ").append(outcomes.size())
                .append(" | ").append(median(outcomes)).append(" | ").append(max(outcomes)).append(" | ")
                .append(longestGap(outcomes)).append(" |\n"));
        out.append("| **all** | ").append(result.faults().size()).append(" | ").append(median(result.faults())).append(" | ")
                .append(max(result.faults())).append(" | ").append(longestGap(result.faults())).append(" |\n\n");
        out.append("| measure | value |\n|---|---:|\n");
        row(out, "records acknowledged (acks=all)", result.acks().acknowledged());
        row(out, "acknowledged records lost", result.acks().lost());
        row(out, "acknowledged records not at the acknowledged offset", result.acks().moved());
        row(out, "records duplicated", result.acks().duplicated());
        row(out, "records out of send order", result.acks().outOfOrder());
        row(out, "records never sent", result.acks().neverSent());
        row(out, "partitions with divergent replicas", result.replicas().divergentPartitions());
        row(out, "leader-epoch regressions in a log", result.replicas().epochRegressions());
        row(out, "split brains (two leaders, one epoch)", result.leadership().splitBrains());
        row(out, "leaderships at an epoch from before a restart", result.leadership().staleEpochLeaderships());
        row(out, "non-retriable producer errors", result.nonRetriableErrors().size());
        row(out, "retriable producer errors (after the client's own retries)",
                result.clientErrors().size() - result.nonRetriableErrors().size());
        row(out, "acknowledged records the consumer group missed", result.groupMissed());
        row(out, "faults not recovered within session timeout + 10 s, or with a longer pause before the cluster was healthy "
                        + "(or, with a broker down, not served 10 s after its session expired)",
                result.slowRecoveries().size());
        return out.toString();
    }

    private static void row(StringBuilder out, String measure, long value) {
        out.append("| ").append(measure).append(" | ").append(value).append(" |\n");
    }

    private static String median(List<FaultOutcome> outcomes) {
        List<Duration> sorted = recovered(outcomes);
        return sorted.isEmpty() ? "-" : seconds(sorted.get(sorted.size() / 2)) + notRecovered(outcomes);
    }

    private static String max(List<FaultOutcome> outcomes) {
        List<Duration> sorted = recovered(outcomes);
        return sorted.isEmpty() ? "-" : seconds(sorted.get(sorted.size() - 1));
    }

    private static String longestGap(List<FaultOutcome> outcomes) {
        return outcomes.stream().map(FaultOutcome::longestGap).max(Duration::compareTo).map(ResultsTable::seconds).orElse("-");
    }

    private static List<Duration> recovered(List<FaultOutcome> outcomes) {
        return outcomes.stream().map(FaultOutcome::recovery).flatMap(Optional::stream).sorted().toList();
    }

    private static String notRecovered(List<FaultOutcome> outcomes) {
        long missing = outcomes.stream().filter(o -> o.recovery().isEmpty()).count();
        return missing == 0 ? "" : " (" + missing + " not within 60 s)";
    }

    private static String seconds(Duration d) {
        return String.format("%.1f s", d.toMillis() / 1000.0);
    }

    private static String minutes(Duration d) {
        return d.toMinutes() + " min";
    }
}
