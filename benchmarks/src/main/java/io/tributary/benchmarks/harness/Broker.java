package io.tributary.benchmarks.harness;

import java.util.Map;

/**
 * A broker under test as the workloads see it: where to connect, and how much CPU it has burnt.
 * One child JVM ({@link BrokerProcess}), a replicated cluster summing the CPU of its members
 * ({@link BrokerCluster}), or another listener of one ({@link TlsListener}).
 */
public interface Broker {
    String bootstrapServers();

    /** The client settings a connection needs besides the address ({@code security.protocol}, trust); none for PLAINTEXT. */
    default Map<String, Object> clientSecurity() {
        return Map.of();
    }

    /** User + system CPU seconds the broker has used since it started. */
    double cpuSeconds();
}
