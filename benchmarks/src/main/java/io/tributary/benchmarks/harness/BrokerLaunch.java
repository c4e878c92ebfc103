package io.tributary.benchmarks.harness;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How to start one broker in a child JVM: its main class and arguments, and how to learn its
 * bootstrap address (known up front, or reported by the child once it is up).
 */
public record BrokerLaunch(String mainClass, List<String> arguments, Supplier<Optional<String>> bootstrapServers) {
    public BrokerLaunch {
        arguments = List.copyOf(arguments);
    }
}
