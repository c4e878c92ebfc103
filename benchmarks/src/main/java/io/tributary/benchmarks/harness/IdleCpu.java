package io.tributary.benchmarks.harness;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * What each side's brokers burn with no load at all (Kafka's KRaft controller, ZooKeeper sessions,
 * replica fetchers waiting, timers): it is part of every phase's CPU figure, so the report shows it
 * on its own, in CPU-seconds per second.
 */
final class IdleCpu {
    private IdleCpu() {
    }

    static void measure(Map<Side, ? extends Broker> brokers, Duration window, Metric metric, Scoreboard scoreboard)
            throws InterruptedException {
        Map<Side, Double> before = new EnumMap<>(Side.class);
        brokers.forEach((side, broker) -> before.put(side, broker.cpuSeconds()));
        Thread.sleep(window.toMillis());
        double seconds = window.toMillis() / 1000.0;
        brokers.forEach((side, broker) -> scoreboard.add(metric, side, (broker.cpuSeconds() - before.get(side)) / seconds));
    }
}
