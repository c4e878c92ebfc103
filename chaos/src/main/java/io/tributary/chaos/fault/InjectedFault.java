package io.tributary.chaos.fault;

/**
 * One fault as it happened.
 *
 * @param target     what it hit ("broker 2, leader of chaos-1")
 * @param startNanos when it began ({@link System#nanoTime()})
 * @param endNanos   when it ended: the restart, SIGCONT or healed link was under way
 */
public record InjectedFault(FaultKind kind, String target, long startNanos, long endNanos) {
}
