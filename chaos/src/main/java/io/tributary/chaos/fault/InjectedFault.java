package io.tributary.chaos.fault;

import io.tributary.chaos.load.RecoveryClock;

/**
 * One fault as it happened.
 *
 * @param target      what it hit ("broker 2, leader of chaos-1")
 * @param startNanos  when it began ({@link System#nanoTime()})
 * @param recovery    started when the fault ended (the restart, SIGCONT or healed link was under way): times each
 *                    partition's first acknowledgement from then on; the caller closes it
 * @param whileDown   for a broker killed past its session: whether every partition was served
 *                    again, with the broker still down, within 10 s of the session's expiry
 */
public record InjectedFault(FaultKind kind, String target, long startNanos, RecoveryClock recovery, ServiceWhileDown whileDown) {

    /** Whether the cluster served every partition while a killed broker stayed down. */
    public enum ServiceWhileDown {
        NOT_CHECKED, SERVED, NOT_SERVED
    }
}
