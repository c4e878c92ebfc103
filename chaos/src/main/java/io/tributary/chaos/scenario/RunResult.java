package io.tributary.chaos.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import io.tributary.chaos.check.AckFindings;
import io.tributary.chaos.check.ReplicaFindings;
import io.tributary.chaos.check.SplitBrainDetector;
import io.tributary.chaos.cluster.ClusterSettings;
import io.tributary.chaos.fault.InjectedFault;
import io.tributary.chaos.load.ClientError;

/**
 * Everything one run found.
 *
 * @param groupMissed acknowledged records still in the log that the consumer group never read
 */
public record RunResult(ClusterSettings settings, long seed, List<FaultOutcome> faults, AckFindings acks,
                        ReplicaFindings replicas, SplitBrainDetector.Findings leadership, List<ClientError> clientErrors,
                        int groupMissed, Duration elapsed) {

    public List<ClientError> nonRetriableErrors() {
        return clientErrors.stream().filter(e -> !e.retriable()).toList();
    }

    /**
     * Faults after which some partition was not served again within the bound, or went
     * longer than the bound without an acknowledgement before the cluster was healthy again (a
     * restarted broker rejoining), or, for a broker killed past its session, was not served without
     * it within 10 s of the session's expiry.
     */
    public List<FaultOutcome> slowRecoveries() {
        return faults.stream().filter(f -> f.recovery().isEmpty()
                || f.longestGap().compareTo(settings.recoveryBound()) > 0
                || f.fault().whileDown() == InjectedFault.ServiceWhileDown.NOT_SERVED).toList();
    }

    public Optional<Duration> medianRecovery() {
        List<Duration> sorted = recoveries();
        return sorted.isEmpty() ? Optional.empty() : Optional.of(sorted.get(sorted.size() / 2));
    }

    public Optional<Duration> maxRecovery() {
        List<Duration> sorted = recoveries();
        return sorted.isEmpty() ? Optional.empty() : Optional.of(sorted.get(sorted.size() - 1));
    }

    private List<Duration> recoveries() {
        return faults.stream().flatMap(f -> f.recovery().stream()).sorted().toList();
    }

    /** Whether the run met every promise of issue 17. */
    public boolean clean() {
        return acks.clean() && replicas.clean() && leadership.clean() && nonRetriableErrors().isEmpty()
                && groupMissed == 0 && slowRecoveries().isEmpty();
    }

    /** A multi-line account for a test failure or the soak's output. */
    public String summary() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%d faults, %d acknowledged, %d lost, %d moved, %d duplicated, %d out of order, %d never sent;%n",
                faults.size(), acks.acknowledged(), acks.lost(), acks.moved(), acks.duplicated(), acks.outOfOrder(), acks.neverSent()));
        out.append(String.format("%d divergent partitions, %d leader-epoch regressions (%d batches compared);%n",
                replicas.divergentPartitions(), replicas.epochRegressions(), replicas.comparedBatches()));
        out.append(String.format("%d split brains, %d stale-epoch leaderships (%d claims); group missed %d;%n",
                leadership.splitBrains(), leadership.staleEpochLeaderships(), leadership.claims(), groupMissed));
        out.append(String.format("client errors: %d (%d non-retriable: %s; retriable: %s); recovery median %s, max %s, %d over the bound of %s%n",
                clientErrors.size(), nonRetriableErrors().size(), countByName(nonRetriableErrors()),
                countByName(clientErrors.stream().filter(ClientError::retriable).toList()),
                medianRecovery().map(Duration::toMillis).map(ms -> ms + " ms").orElse("-"),
                maxRecovery().map(Duration::toMillis).map(ms -> ms + " ms").orElse("-"),
                slowRecoveries().size(), settings.recoveryBound()));
        for (FaultOutcome outcome : faults) {
            out.append(String.format("  %-30s %-60s recovered in %s (%s)%s%n", outcome.fault().kind(), outcome.fault().target(),
                    outcome.recovery().map(d -> d.toMillis() + " ms").orElse("NOT within the window"), perPartition(outcome),
                    switch (outcome.fault().whileDown()) {
                        case NOT_CHECKED -> "";
                        case SERVED -> "; served while it was down";
                        case NOT_SERVED -> "; NOT SERVED while it was down (10 s after its session expired)";
                    }));
        }
        acks.examples().forEach(e -> out.append("  ").append(e).append('\n'));
        replicas.examples().forEach(e -> out.append("  ").append(e).append('\n'));
        leadership.examples().forEach(e -> out.append("  ").append(e).append('\n'));
        return out.toString();
    }

    /** "kafkajs:KafkaJSConnectionError=3" and so on. */
    private static Map<String, Long> countByName(List<ClientError> errors) {
        return errors.stream().collect(Collectors.groupingBy(e -> e.source() + ":" + e.name(), TreeMap::new, Collectors.counting()));
    }

    private String perPartition(FaultOutcome outcome) {
        StringBuilder out = new StringBuilder();
        for (int p = 0; p < outcome.partitions().size(); p++) {
            out.append(p == 0 ? "" : ", ").append(settings.topic()).append('-').append(p).append(' ')
                    .append(outcome.partitions().get(p).map(d -> d.toMillis() + " ms").orElse("-"))
                    .append(" (longest pause ").append(outcome.longestGaps().get(p).toMillis()).append(" ms)");
        }
        return out.toString();
    }
}
