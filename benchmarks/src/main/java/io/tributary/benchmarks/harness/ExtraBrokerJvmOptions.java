package io.tributary.benchmarks.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Opt-in JVM options for both brokers' child JVMs, read from the environment variable
 * {@value #VARIABLE} (split on white space), for profiling a run:
 * {@code BROKER_JVM_OPTIONS='-XX:StartFlightRecording=filename=broker.jfr,settings=profile' benchmarks/run --quick}
 * leaves one recording in each broker's work directory. Both sides always get the same options, so
 * a run with them stays a fair comparison, though not one to publish (a profiler costs CPU).
 */
public final class ExtraBrokerJvmOptions {
    public static final String VARIABLE = "BROKER_JVM_OPTIONS";

    private ExtraBrokerJvmOptions() {
    }

    /** The options in {@code environment}, or none when the variable is unset or blank. */
    public static List<String> from(Map<String, String> environment) {
        String value = environment.getOrDefault(VARIABLE, "").strip();
        return value.isEmpty() ? List.of() : Arrays.asList(value.split("\\s+"));
    }
}
