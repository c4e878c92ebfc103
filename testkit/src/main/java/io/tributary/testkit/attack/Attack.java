package io.tributary.testkit.attack;

import java.time.Duration;
import java.util.Map;

/**
 * One way of misusing a broker, shared by the overload tests (which check what the broker does) and the attack
 * harness of benchmarks (which measures it, against Tributary and Apache Kafka alike). An attack never checks
 * the broker's answers itself: it counts them by kind in {@link #outcomes}, so that one attack runs against
 * brokers that answer differently.
 */
public interface Attack extends AutoCloseable {
    /** A short description for reports, such as "200 connections announcing 100 MB frames". */
    String description();

    /** Begins the attack on {@code host:port}; returns once it is under way. */
    void start(String host, int port) throws Exception;

    /**
     * Waits (at most {@code timeout}) until an attack of a fixed size has sent everything; an attack that holds
     * its connections until closed is done once started. @return whether it is done
     */
    default boolean awaitDone(Duration timeout) throws InterruptedException {
        return true;
    }

    /** What the attacker met so far, counted by kind (for example "unknown API key: UNSUPPORTED_VERSION"). */
    Map<String, Integer> outcomes();

    /** Stops the attack and releases everything it holds. */
    @Override
    void close();
}
