package io.tributary.benchmarks.attack;

import io.tributary.benchmarks.harness.BrokerFlavor;

import java.util.Map;

/**
 * What one attack did to one broker.
 *
 * @param aliveAfter     the broker process still ran when the attack ended
 * @param outOfMemory    its log names an OutOfMemoryError
 * @param heapPeakMiB    the heap high-water mark during the attack, or -1 if it could not be read (the broker died)
 * @param liveMiB        the heap in use after a full collection at the attack's end, its connections still open (-1 if dead)
 * @param p99WithoutMs   the good producer's p99 on the idle broker
 * @param p99DuringMs    the good producer's p99 during the attack (-1 if no send succeeded)
 * @param goodSent       good records acknowledged during the attack, of {@code goodRecords}
 * @param goodIntact     every good record was acknowledged and read back once, in order, and nothing else was read
 * @param outcomes       what the attacker met, by kind
 */
record AttackResult(BrokerFlavor flavor, String attack, boolean aliveAfter, boolean outOfMemory, long heapPeakMiB, long liveMiB,
                    double p99WithoutMs, double p99DuringMs, int goodRecords, int goodSent, boolean goodIntact,
                    Map<String, Integer> outcomes) {
    AttackResult {
        outcomes = Map.copyOf(outcomes);
    }
}
