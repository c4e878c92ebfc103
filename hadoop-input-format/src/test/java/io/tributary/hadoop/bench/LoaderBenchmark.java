package io.tributary.hadoop.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.loader.LoaderConfig;
import io.tributary.hadoop.loader.TopicLoader;
import io.tributary.hadoop.testing.LocalJobs;
import io.tributary.hadoop.testing.TestBroker;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.parquet.hadoop.ParquetWriter;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

/**
 * Loader records/s into Parquet divided by the ceiling of this step: writing the same rows,
 * already in memory, straight with AvroParquetWriter. Like for like: the ceiling writes the rows
 * the loader's {@link RecordConverter} makes (same schema and representation), through the
 * writer factory of the loader's own configuration (same codec, row group and page size), one
 * file per partition as the loader's one split per partition, on as many threads as the local
 * job runner runs maps at once; the rows are read into memory before each ceiling run (not timed)
 * and dropped after it. The loader time is the whole tool run: planning, job setup,
 * reading from Kafka, converting, writing, committing. The two sides alternate within each
 * round, after a warm-up round that does not count; every round prints its ratio and the load average,
 * and the end prints every round's ratio and their median (so the number of rounds must be odd).
 * The fifth argument picks the loader's reader: {@code on} (prefetching, the default), {@code off}
 * ({@code tributary.reader.prefetch=false}) or {@code both}, which runs both loaders every round.
 *
 * <p>The heap must be fixed ({@code -Xms} equal to {@code -Xmx}), or the sides do not get the same
 * one: the {@code System.gc()} before each side shrinks a growable heap to its live data before the
 * loader runs, while the ceiling's rows, read in just before its timed part, grow it again — a young
 * generation a fraction of the size, collected many times as often, for the loader only.
 *
 * <pre>
 * mvn -B -q -pl hadoop-input-format -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -Xms3g -Xmx3g -cp hadoop-input-format/target/test-classes:hadoop-input-format/target/classes:$(cat /tmp/cp.txt) \
 *     io.tributary.hadoop.bench.LoaderBenchmark [records, default 2000000] [value bytes, default 100] [rounds, odd, default 3] [maps, default: cores] [prefetch on|off|both, default on]
 * </pre>
 */
public final class LoaderBenchmark {
    private static final int PARTITIONS = 4;
    private static final String TOPIC = "bench";
    private static final String CODEC = "snappy";

    private LoaderBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int valueBytes = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        if (rounds < 1 || rounds % 2 == 0) {
            throw new IllegalArgumentException("rounds must be odd, so that the median is one of them: " + rounds);
        }
        int maps = args.length > 3 ? Integer.parseInt(args[3]) : Runtime.getRuntime().availableProcessors();
        List<Boolean> prefetchModes = switch (args.length > 4 ? args[4] : "on") {
            case "on" -> List.of(true);
            case "off" -> List.of(false);
            case "both" -> List.of(true, false);
            default -> throw new IllegalArgumentException("prefetch must be on, off or both: " + args[4]);
        };
        // The JVM's own settings: the memory bean's maximum leaves out a survivor space under some collectors.
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        long initialHeap = Long.parseLong(vm.getVMOption("InitialHeapSize").getValue());
        long maxHeap = Long.parseLong(vm.getVMOption("MaxHeapSize").getValue());
        if (initialHeap != maxHeap) {
            throw new IllegalArgumentException("run with a fixed heap, -Xms equal to -Xmx (e.g. -Xms3g -Xmx3g), so that both sides get the same one;"
                + " this JVM starts at " + (initialHeap >> 20) + " MiB and may grow to " + (maxHeap >> 20) + " MiB");
        }
        java.nio.file.Path work = Files.createTempDirectory("loader-bench");
        try (TestBroker broker = TestBroker.start(work.resolve("kafka"))) {
            broker.createTopic(TOPIC, PARTITIONS);
            byte[] value = new byte[valueBytes];
            Arrays.fill(value, (byte) 'x');
            broker.produce(TOPIC, PARTITIONS, records / PARTITIONS, System.currentTimeMillis() - 600_000, 0, (p, i) -> value);
            int total = records / PARTITIONS * PARTITIONS;

            double[][] ratios = new double[prefetchModes.size()][rounds];
            for (int round = 0; round <= rounds; round++) { // round 0 warms the JIT up for both sides and does not count
                Side[] loader = new Side[prefetchModes.size()];
                for (int m = 0; m < loader.length; m++) {
                    System.gc(); // each side starts on a heap without the other's garbage
                    loader[m] = loaderRun(broker.bootstrapServers(), work.resolve("lake-" + round + "-" + m), total, maps, prefetchModes.get(m));
                }
                Side ceiling = ceilingRun(broker.bootstrapServers(), total, work.resolve("ceiling-" + round), maps);
                StringBuilder line = new StringBuilder(round == 0 ? "warm-up:" : "round " + round + ":");
                for (int m = 0; m < loader.length; m++) {
                    double ratio = loader[m].recordsPerSecond() / ceiling.recordsPerSecond();
                    if (round > 0) {
                        ratios[m][round - 1] = ratio;
                    }
                    line.append(String.format(" loader (prefetch %s) %s, ratio %.2f;", prefetchModes.get(m) ? "on" : "off", loader[m], ratio));
                }
                System.out.printf("%s AvroParquetWriter from memory %s, load average %s%n", line, ceiling, loadAverage());
            }
            for (int m = 0; m < prefetchModes.size(); m++) {
                double[] sorted = ratios[m].clone();
                Arrays.sort(sorted);
                System.out.printf("prefetch %s: ratios by round %s, median %.2f (%d records of %d value bytes, %d partitions, %d maps and ceiling threads)%n",
                    prefetchModes.get(m) ? "on" : "off", formatted(ratios[m]), sorted[rounds / 2], total, valueBytes, PARTITIONS, maps);
            }
        } finally {
            FileUtil.fullyDelete(work.toFile()); // the topic and the datasets: gigabytes per run
        }
    }

    /**
     * A side's throughput, and the CPU time the whole process spent meanwhile (the in-process
     * broker and the garbage collector included): where the cores are shared, CPU per record
     * varies less than records per second.
     */
    private record Side(double recordsPerSecond, double cpuSeconds) {
        static Side of(long records, long startNanos, long startCpuNanos) {
            return new Side(records / ((System.nanoTime() - startNanos) / 1e9), (processCpuNanos() - startCpuNanos) / 1e9);
        }

        @Override
        public String toString() {
            return String.format("%.0f records/s (process CPU %.1f s)", recordsPerSecond, cpuSeconds);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static Side loaderRun(String bootstrap, java.nio.file.Path work, int expected, int maps, boolean prefetch) throws Exception {
        Configuration conf = LocalJobs.conf(work);
        conf.setInt("mapreduce.local.map.tasks.maximum", maps);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long startCpu = processCpuNanos();
        long start = System.nanoTime();
        int code = ToolRunner.run(conf, new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8), System.err), new String[] {
            "-D", InputConfig.SPLIT_MAX_RECORDS + "=" + expected / PARTITIONS, "-D", InputConfig.SPLIT_PACK_RECORDS + "=0",
            "-D", LoaderConfig.PARQUET_CODEC + "=" + CODEC, "-D", InputConfig.READER_PREFETCH + "=" + prefetch,
            "--bootstrap-server", bootstrap, "--topic", TOPIC, "--output", work.resolve("lake").toUri().toString(), "--start", "earliest"});
        Side side = Side.of(expected, start, startCpu);
        if (code != 0 || !out.toString(StandardCharsets.UTF_8).contains("loaded " + expected + " records")) {
            throw new IllegalStateException("loader run failed: " + out);
        }
        return side;
    }

    /**
     * The ceiling's rows live only while it runs: held through a loader run, millions of rows
     * would keep the old generation full and G1 marking it on the core the loader's fetch thread uses.
     */
    private static Side ceilingRun(String bootstrap, int total, java.nio.file.Path work, int threads) throws Exception {
        List<List<GenericRecord>> rows = rowsInMemory(bootstrap, total); // not timed
        System.gc();
        return writerRun(rows, work, threads);
    }

    /** One file per partition, {@code threads} at a time, as the local job runner runs one split per partition. */
    private static Side writerRun(List<List<GenericRecord>> partitions, java.nio.file.Path work, int threads) throws Exception {
        Configuration conf = new Configuration();
        conf.set(LoaderConfig.PARQUET_CODEC, CODEC);
        ParquetWriterFactory writers = new LoaderConfig(conf).writerFactory();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long startCpu = processCpuNanos();
            long start = System.nanoTime();
            List<Future<Integer>> written = new ArrayList<>();
            for (int p = 0; p < partitions.size(); p++) {
                List<GenericRecord> rows = partitions.get(p);
                Path file = new Path(work.resolve("p" + p + ".parquet").toUri());
                written.add(pool.submit(() -> {
                    try (ParquetWriter<GenericRecord> writer = writers.open(file, rows.get(0).getSchema())) {
                        for (GenericRecord row : rows) {
                            writer.write(row);
                        }
                    }
                    return rows.size();
                }));
            }
            long count = 0;
            for (Future<Integer> f : written) {
                count += f.get();
            }
            return Side.of(count, start, startCpu);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The rows the loader writes, made by the same converter (a new row each, to keep them). */
    private static List<List<GenericRecord>> rowsInMemory(String bootstrap, int total) {
        List<List<GenericRecord>> rows = new ArrayList<>();
        IntStream.range(0, PARTITIONS).forEach(p -> rows.add(new ArrayList<>()));
        RecordConverter converter = RecordConverter.raw();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()))) {
            List<TopicPartition> tps = IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition(TOPIC, p)).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            int read = 0;
            while (read < total) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
                    rows.get(record.partition()).add(converter.convert(record));
                    read++;
                }
            }
        }
        return rows;
    }

    private static String formatted(double[] ratios) {
        StringBuilder out = new StringBuilder();
        for (double r : ratios) {
            out.append(out.length() == 0 ? "" : " ").append(String.format("%.2f", r));
        }
        return out.toString();
    }

    private static String loadAverage() {
        try {
            return Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ", 4)[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
