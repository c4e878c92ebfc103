package io.tributary.benchmarks.harness;

/**
 * A broker under test as the workloads see it: where to connect, and how much CPU it has burnt.
 * Today one child JVM ({@link BrokerProcess}); a replicated (RF 3) cluster of three will implement
 * this too, summing the CPU of its members.
 */
public interface Broker {
    String bootstrapServers();

    /** User + system CPU seconds the broker has used since it started. */
    double cpuSeconds();
}
