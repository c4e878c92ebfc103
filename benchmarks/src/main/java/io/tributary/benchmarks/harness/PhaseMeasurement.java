package io.tributary.benchmarks.harness;

/** What one timed produce or consume phase moved, how long it took and how much broker CPU it cost. */
public record PhaseMeasurement(long records, long bytes, long elapsedNanos, double brokerCpuSeconds) {
    public PhaseMeasurement {
        if (records <= 0 || elapsedNanos <= 0) {
            throw new IllegalArgumentException("a phase must move records and take time: " + records
                    + " records in " + elapsedNanos + " ns");
        }
    }

    public double recordsPerSecond() {
        return records * 1e9 / elapsedNanos;
    }

    public double megabytesPerSecond() {
        return bytes * 1e9 / elapsedNanos / (1024 * 1024);
    }

    public double cpuSecondsPerMillionRecords() {
        return brokerCpuSeconds / (records / 1e6);
    }
}
