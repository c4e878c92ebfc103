package io.tributary.benchmarks.storage;

import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

/**
 * Storage benchmark of the partition log (issue 2), run as a plain program:
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -Xmx1g -Dlog4j.configuration=io/tributary/benchmarks/harness/log4j.properties \
 *     -cp "benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*" \
 *     io.tributary.benchmarks.storage.StorageBenchmark [--quick] [--random-read-only] [--dir=PATH] [--large-gib=10] ...
 * </pre>
 * It measures append throughput (100-byte records in 16 KiB batches), sequential read throughput, the append
 * rate of a large log against an empty one (alternating rounds, medians) and the latency of one-batch reads at
 * random offsets with 10,000 segments against 10 segments of the same total size (median latencies). The last
 * line is {@code RESULT append_mib_s=.. read_mib_s=.. append_large_over_empty=.. append_cpu_large_over_empty=..
 * random_read_many_over_few=..}.
 */
public final class StorageBenchmark implements AutoCloseable {

    /** Segment size of the append comparison: several rolls per measured window. */
    private static final int APPEND_SEGMENT_BYTES = 128 * 1024 * 1024;

    private final StorageOptions options;
    private final PrintStream out;
    private final LogConfig defaults = LogConfig.fromBroker(Map.of());
    private LogManager logs;
    private int logCounter;

    private StorageBenchmark(StorageOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        openLogs();
    }

    private void openLogs() {
        logs = LogManager.open(List.of(options.dir()), defaults, Time.SYSTEM);
    }

    public static void main(String[] args) throws Exception {
        StorageOptions options;
        try {
            options = StorageOptions.parse(args, Path.of("benchmarks/target/storage-benchmark"));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println(run(options, System.out));
    }

    /** Runs every measurement, prints progress and a table to {@code out}, and returns the RESULT line. */
    static String run(StorageOptions options, PrintStream out) throws IOException {
        deleteRecursively(options.dir());
        try (StorageBenchmark benchmark = new StorageBenchmark(options, out)) {
            return benchmark.runAll();
        } finally {
            deleteRecursively(options.dir());
        }
    }

    private String runAll() throws IOException {
        BenchmarkBatches batches = new BenchmarkBatches(16, System.currentTimeMillis());
        out.printf("batches: %d records of %d bytes, %d bytes per batch%n", batches.recordsPerBatch(),
                BenchmarkBatches.RECORD_VALUE_BYTES, batches.batchBytes());
        if (options.randomReadOnly()) {
            return String.format("RESULT random_read_many_over_few=%.3f", reportedReadRatio(batches));
        }

        // Both logs roll at the same size, so every window crosses segment rolls (and their background flushes)
        // alike: only the size of the log differs between the two sides.
        LogConfig appendConfig = withSegmentBytes(APPEND_SEGMENT_BYTES);
        PartitionLog large = newLog(appendConfig);
        Throughput build = StorageWorkloads.append(large, batches, options.largeLogBytes());
        report("append (building the large log)", build);
        large = restartAndReload(large);

        List<Throughput> onLarge = new ArrayList<>();
        List<Throughput> onEmpty = new ArrayList<>();
        for (int round = 0; round < options.rounds(); round++) {
            PartitionLog empty = newLog(appendConfig);
            if (round % 2 == 0) {
                onLarge.add(measureWindow(large, batches));
                onEmpty.add(measureWindow(empty, batches));
            } else {
                onEmpty.add(measureWindow(empty, batches));
                onLarge.add(measureWindow(large, batches));
            }
            logs.delete(List.of(empty.topicPartition()));
        }
        Throughput append = median(onEmpty, Throughput::mibPerSecond);
        report("append, empty log (median)", append);
        report("append, large log (median)", median(onLarge, Throughput::mibPerSecond));
        double appendRatio = median(onLarge, Throughput::mibPerSecond).mibPerSecond() / append.mibPerSecond();
        double appendCpuRatio = median(onLarge, Throughput::mibPerCpuSecond).mibPerCpuSecond()
                / median(onEmpty, Throughput::mibPerCpuSecond).mibPerCpuSecond();

        Throughput read = StorageWorkloads.readAll(large);
        report("sequential read of the large log", read);
        logs.delete(List.of(large.topicPartition()));

        double readRatio = reportedReadRatio(batches);
        String result = String.format("RESULT append_mib_s=%.1f read_mib_s=%.1f append_large_over_empty=%.3f "
                + "append_cpu_large_over_empty=%.3f random_read_many_over_few=%.3f", append.mibPerSecond(),
                read.mibPerSecond(), appendRatio, appendCpuRatio, readRatio);
        out.printf("%nappend rate at %.1f GiB / empty log = %.3f wall, %.3f per CPU second (O(1) if >= 0.95)%n",
                options.largeLogBytes() / (1024.0 * 1024 * 1024), appendRatio, appendCpuRatio);
        return result;
    }

    private double reportedReadRatio(BenchmarkBatches batches) throws IOException {
        double readRatio = randomReadComparison(batches);
        out.printf("random-read median latency with %d / %d segments = %.3f (<= 1.2 expected)%n",
                options.manySegments(), options.fewSegments(), readRatio);
        return readRatio;
    }

    /** Closes the log manager cleanly and opens it again, reporting how long the start-up took. */
    private PartitionLog restartAndReload(PartitionLog log) {
        logs.close();
        long start = System.nanoTime();
        openLogs();
        long millis = (System.nanoTime() - start) / 1_000_000;
        PartitionLog reloaded = logs.log(log.topicPartition()).orElseThrow();
        out.printf("start-up after a clean shutdown with %.1f GiB: %d ms%n",
                sizeGib(reloaded), millis);
        return reloaded;
    }

    private Throughput measureWindow(PartitionLog log, BenchmarkBatches batches) {
        log.flush(); // both sides start with no dirty pages of their own
        return StorageWorkloads.append(log, batches, options.windowBytes());
    }

    /** Median latency of random one-batch reads, many segments over few, medians of alternating rounds. */
    private double randomReadComparison(BenchmarkBatches batches) throws IOException {
        // Whole batches per segment, so both logs get exactly the segment counts asked for.
        int perManySegment = Math.max(1, options.segmentBytes() / batches.batchBytes());
        long totalBatches = (long) perManySegment * options.manySegments();
        int perFewSegment = (int) Math.ceil(totalBatches / (double) options.fewSegments());
        PartitionLog many = newLog(withSegmentBytes(perManySegment * batches.batchBytes()));
        PartitionLog few = newLog(withSegmentBytes(perFewSegment * batches.batchBytes()));
        long total = totalBatches * batches.batchBytes();
        StorageWorkloads.append(many, batches, total);
        StorageWorkloads.append(few, batches, total);
        out.printf("random reads: %d segments and %d segments, %.0f MiB each%n", segmentCount(many),
                segmentCount(few), total / (1024.0 * 1024));
        Random random = new Random(7);
        StorageWorkloads.randomReads(many, options.randomReads(), random); // warm-up: JIT and page cache
        StorageWorkloads.randomReads(few, options.randomReads(), random);
        List<Latencies> onMany = new ArrayList<>();
        List<Latencies> onFew = new ArrayList<>();
        for (int round = 0; round < options.rounds(); round++) {
            onMany.add(Latencies.of(StorageWorkloads.randomReads(many, options.randomReads(), random)));
            onFew.add(Latencies.of(StorageWorkloads.randomReads(few, options.randomReads(), random)));
        }
        Latencies manyMedian = median(onMany, Latencies::p50Micros);
        Latencies fewMedian = median(onFew, Latencies::p50Micros);
        reportLatency(segmentCount(many) + " segments", manyMedian);
        reportLatency(segmentCount(few) + " segments", fewMedian);
        logs.close(); // the control opens the same files itself: stay under the open-file limit
        reportFloor("pread", ReadFloor::pread, many, few, random);
        reportFloor("mapped", ReadFloor::mapped, many, few, random);
        openLogs();
        logs.delete(List.of(many.topicPartition(), few.topicPartition()));
        return manyMedian.p50Micros() / fewMedian.p50Micros();
    }

    /** A control's latencies on the files of both logs; call with the logs closed (it opens the files itself). */
    private void reportFloor(String name, Floor floor, PartitionLog many, PartitionLog few, Random random)
            throws IOException {
        Latencies onMany = Latencies.of(floor.measure(many.dir(), options.randomReads(), random));
        Latencies onFew = Latencies.of(floor.measure(few.dir(), options.randomReads(), random));
        reportLatency(name + " floor, many", onMany);
        reportLatency(name + " floor, few", onFew);
        out.printf("the same reads without the log (%s floor): many / few = %.3f%n", name,
                onMany.p50Micros() / onFew.p50Micros());
    }

    /** One of the {@link ReadFloor} controls. */
    private interface Floor {
        long[] measure(Path dir, int count, Random random) throws IOException;
    }

    private static double sizeGib(PartitionLog log) {
        try (Stream<Path> files = Files.list(log.dir())) {
            return files.mapToLong(f -> f.toFile().length()).sum() / (1024.0 * 1024 * 1024);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        logs.close();
    }

    private LogConfig withSegmentBytes(int bytes) {
        return defaults.withTopicOverrides(Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(bytes)));
    }

    private PartitionLog newLog(LogConfig config) {
        return logs.getOrCreate(new TopicPartition("bench", logCounter++), config);
    }

    private static long segmentCount(PartitionLog log) throws IOException {
        try (Stream<Path> files = Files.list(log.dir())) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).count();
        }
    }

    private static <T> T median(List<T> values, ToDoubleFunction<T> key) {
        List<T> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.comparingDouble(key));
        return sorted.get(sorted.size() / 2);
    }

    private void report(String what, Throughput t) {
        out.printf("%-36s %8.1f MiB/s %11.0f records/s %8.1f MiB/CPU-s (%.1f MiB in %.2f s)%n", what,
                t.mibPerSecond(), t.recordsPerSecond(), t.mibPerCpuSecond(), t.bytes() / (1024.0 * 1024),
                t.nanos() / 1e9);
    }

    private void reportLatency(String what, Latencies l) {
        out.printf("random one-batch read, %-19s mean %7.2f us  p50 %7.2f us  p99 %7.2f us%n", what,
                l.meanMicros(), l.p50Micros(), l.p99Micros());
    }

    /** Deletes {@code dir}; files the log manager's background deletion removes meanwhile are skipped. */
    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(directory);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
