package io.tributary.benchmarks.storage;

/** Bytes and records moved in a measured time. */
record Throughput(long bytes, long records, long nanos) {

    double mibPerSecond() {
        return bytes / (1024.0 * 1024.0) / seconds();
    }

    double recordsPerSecond() {
        return records / seconds();
    }

    private double seconds() {
        return nanos / 1e9;
    }
}
