package io.tributary.chaos.scenario;

import java.time.Duration;
import java.util.Optional;
import io.tributary.chaos.fault.InjectedFault;

/**
 * A fault and how the cluster came back from it.
 *
 * @param recovery how long after the fault ended every partition acknowledged a write again; empty if not
 *                 within the run's measuring window
 */
public record FaultOutcome(InjectedFault fault, Optional<Duration> recovery) {
}
