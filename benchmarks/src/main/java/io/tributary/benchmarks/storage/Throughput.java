package io.tributary.benchmarks.storage;

/**
 * Bytes and records moved in a measured wall time, and the CPU time the measuring thread used meanwhile. CPU
 * throughput is the figure to compare on a shared machine: other processes stretch wall time, not CPU time.
 */
record Throughput(long bytes, long records, long nanos, long cpuNanos) {

    double mibPerSecond() {
        return mib() / (nanos / 1e9);
    }

    double recordsPerSecond() {
        return records / (nanos / 1e9);
    }

    /** MiB per second of the thread's own CPU time. */
    double mibPerCpuSecond() {
        return mib() / (cpuNanos / 1e9);
    }

    private double mib() {
        return bytes / (1024.0 * 1024.0);
    }
}
