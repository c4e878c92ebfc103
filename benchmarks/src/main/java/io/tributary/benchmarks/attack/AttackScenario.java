package io.tributary.benchmarks.attack;

import io.tributary.testkit.attack.Attack;
import io.tributary.testkit.attack.BigFrames;
import io.tributary.testkit.attack.IdleConnections;
import io.tributary.testkit.attack.MalformedFrames;
import io.tributary.testkit.attack.OverQuota;
import io.tributary.testkit.attack.SlowSenders;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * One attack of issue 18 as the harness runs it: a fresh attack per broker, and how long it is kept up at least
 * (the good clients may finish sooner; the slow senders need time for a broker's cut-off to show).
 */
record AttackScenario(String name, Supplier<Attack> attack, Duration holdAtLeast) {
    /** The topic the good clients use during an attack; malformed produces aim at it too. */
    static final String GOOD_TOPIC = "good";
    /** The topic the over-quota producer floods. */
    static final String FLOOD_TOPIC = "flood";

    /** The attacks of issue 18, at the sizes the issue names. */
    static List<AttackScenario> all() {
        return List.of(
                new AttackScenario("big-frames", () -> new BigFrames(200, 100_000_000, 1024), Duration.ZERO),
                new AttackScenario("malformed", () -> new MalformedFrames(4, 100_000, GOOD_TOPIC), Duration.ZERO),
                new AttackScenario("idle", () -> new IdleConnections(10_000, "127.0.0.2"), Duration.ZERO),
                new AttackScenario("slow", () -> new SlowSenders(500, Duration.ofSeconds(1)), Duration.ofSeconds(40)),
                new AttackScenario("quota", () -> new OverQuota(FLOOD_TOPIC, 1_000_000), Duration.ofSeconds(10)));
    }
}
