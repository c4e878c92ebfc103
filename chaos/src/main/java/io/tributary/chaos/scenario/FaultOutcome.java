package io.tributary.chaos.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import io.tributary.chaos.fault.InjectedFault;

/**
 * A fault and how the cluster came back from it.
 *
 * @param partitions per partition, how long after the fault ended it acknowledged a write again; empty for one that
 *                   did not within the run's measuring window
 * @param longestGaps per partition, the longest time without an acknowledgement from the fault's end until the
 *                    cluster was healthy again (a restarted broker back in every ISR) and the loads had been acknowledged since
 */
public record FaultOutcome(InjectedFault fault, List<Optional<Duration>> partitions, List<Duration> longestGaps) {

    public FaultOutcome {
        partitions = List.copyOf(partitions);
        longestGaps = List.copyOf(longestGaps);
    }

    /** How long after the fault ended the last partition acknowledged a write again; empty if one did not within the window. */
    public Optional<Duration> recovery() {
        Duration last = Duration.ZERO;
        for (Optional<Duration> partition : partitions) {
            if (partition.isEmpty()) {
                return Optional.empty();
            }
            last = partition.get().compareTo(last) > 0 ? partition.get() : last;
        }
        return Optional.of(last);
    }

    /** The longest time any partition went without an acknowledgement from the fault's end until the cluster was healthy. */
    public Duration longestGap() {
        return longestGaps.stream().max(Duration::compareTo).orElse(Duration.ZERO);
    }
}
