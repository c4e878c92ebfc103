package io.tributary.benchmarks.storage;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** Measures the wall time and the current thread's CPU time of a piece of work. Use on one thread. */
final class Stopwatch {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long startNanos;
    private final long startCpuNanos;

    private Stopwatch() {
        this.startCpuNanos = THREADS.getCurrentThreadCpuTime();
        this.startNanos = System.nanoTime();
    }

    static Stopwatch start() {
        return new Stopwatch();
    }

    long cpuNanos() {
        return THREADS.getCurrentThreadCpuTime() - startCpuNanos;
    }

    Throughput stop(long bytes, long records) {
        long nanos = System.nanoTime() - startNanos;
        return new Throughput(bytes, records, nanos, cpuNanos());
    }
}
