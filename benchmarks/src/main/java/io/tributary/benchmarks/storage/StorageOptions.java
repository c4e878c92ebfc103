package io.tributary.benchmarks.storage;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Settings of a storage benchmark run.
 *
 * @param dir           where the logs are written (deleted at the end)
 * @param largeLogBytes size of the "large" log whose append rate is compared with an empty log's
 * @param windowBytes   bytes appended per append-rate measurement
 * @param rounds        alternating measurement rounds; medians are reported
 * @param manySegments  segment count of the log for the random-read comparison
 * @param fewSegments   segment count of the other log (same total size)
 * @param segmentBytes  segment size of the many-segment log
 * @param randomReads   reads per random-read measurement
 * @param randomReadOnly run only the random-read comparison (the quick check of the read path)
 */
record StorageOptions(Path dir, long largeLogBytes, long windowBytes, int rounds, int manySegments, int fewSegments,
                      int segmentBytes, int randomReads, boolean randomReadOnly) {

    private static final long MIB = 1024 * 1024;
    private static final Set<String> KEYS = Set.of("--quick", "--dir", "--large-gib", "--window-mib", "--rounds",
            "--many-segments", "--segment-kib", "--random-reads", "--random-read-only");

    /**
     * Reads {@code --name=value} arguments. Defaults: a 10 GiB large log, 512 MiB windows, 3 rounds, 10,000
     * segments of 64 KiB against 10 segments, 100,000 random reads; {@code --quick} shrinks them to a 1 GiB
     * large log, 128 MiB windows and 20,000 reads; {@code --random-read-only} skips the append and sequential-read
     * measurements.
     *
     * @throws IllegalArgumentException on an unknown option or an impossible value
     */
    static StorageOptions parse(String[] args, Path defaultDir) {
        Map<String, String> given = new HashMap<>();
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            if (!KEYS.contains(kv[0])) {
                throw new IllegalArgumentException("Unknown option " + arg + "; options: " + KEYS);
            }
            given.put(kv[0], kv.length == 2 ? kv[1] : "");
        }
        boolean quick = given.containsKey("--quick");
        StorageOptions options = new StorageOptions(
                Path.of(given.getOrDefault("--dir", defaultDir.toString())),
                (long) (Double.parseDouble(given.getOrDefault("--large-gib", quick ? "1" : "10")) * 1024 * MIB),
                Long.parseLong(given.getOrDefault("--window-mib", quick ? "128" : "512")) * MIB,
                Integer.parseInt(given.getOrDefault("--rounds", "3")),
                Integer.parseInt(given.getOrDefault("--many-segments", "10000")),
                10,
                Integer.parseInt(given.getOrDefault("--segment-kib", "64")) * 1024,
                Integer.parseInt(given.getOrDefault("--random-reads", quick ? "20000" : "100000")),
                given.containsKey("--random-read-only"));
        if (options.rounds < 1 || options.windowBytes <= 0 || options.manySegments < options.fewSegments
                || options.randomReads < 1 || options.segmentBytes < BenchmarkBatches.BATCH_BYTES) {
            throw new IllegalArgumentException("Invalid settings " + options);
        }
        return options;
    }
}
