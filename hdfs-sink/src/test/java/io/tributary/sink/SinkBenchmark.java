package io.tributary.sink;

import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.RecordConverter;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.util.HadoopOutputFile;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The sink's benchmark (docs/benchmarks.md), against the broker under test in this JVM
 * ({@code -Dit.broker=apache-kafka} for Apache Kafka 4.4) on the local filesystem:
 * <ol>
 *   <li>rounds alternating the two sides, so load changes on a shared machine hit both alike:
 *     <ul>
 *       <li>ceiling: the topic's rows (same keys, 100 random value bytes, same converter and schema)
 *           written straight from memory with AvroParquetWriter, one file per partition, with the
 *           sink's codec, page size and row-group size;</li>
 *       <li>sink: records/s of a fresh sink (new group, new dataset) draining the pre-filled topic,
 *           from its first fetched record to the ledger covering everything, with
 *           {@code flush.size} = records per partition, so it too writes one file per partition
 *           and the commit is cut by size, not by the timer;</li>
 *     </ul></li>
 *   <li>a plain consumer draining the same topic, for attribution;</li>
 *   <li>freshness: a producer at a steady rate while the sink runs; the largest delay between a
 *       record's timestamp and the commit that made it visible, against rotate.interval.ms.</li>
 * </ol>
 * Arguments (all optional): records partitions rounds rate-per-second seconds rotate-interval-ms writer-threads.
 * Last line: {@code RESULT sink_ratio=<median> cpu_ratio=<median> freshness_max_ms=<y> rotate_interval_ms=<z>}, where
 * cpu_ratio is the ceiling's process CPU per record over the sink's (load-independent; 1 = as cheap).
 */
public final class SinkBenchmark {
    private SinkBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int records = intArg(args, 0, 1_000_000);
        int partitions = intArg(args, 1, 6);
        int rounds = intArg(args, 2, 3);
        int rate = intArg(args, 3, 5_000);
        int seconds = intArg(args, 4, 20);
        long rotateMs = intArg(args, 5, 2_000);
        int writerThreads = intArg(args, 6, SinkConfig.DEFAULT_WRITER_THREADS);
        if (records % partitions != 0) {
            throw new IllegalArgumentException("records must be a multiple of partitions (equal files on both sides)");
        }
        java.nio.file.Path work = Files.createTempDirectory("sink-bench");
        try (SinkTestBroker broker = SinkTestBroker.start(work.resolve("kafka"))) {
            String topic = "drain";
            broker.createTopic(topic, partitions);
            TestLoad.produce(broker.bootstrapServers(), topic, partitions, records);
            Rows rows = Rows.likeTheTopic(records);
            double[] ratios = new double[rounds];
            double[] cpuRatios = new double[rounds];
            // Round 0 warms the JIT up on both sides and is not counted.
            for (int round = 0; round <= rounds; round++) {
                int r = round;
                Measured ceiling = Measured.of(() -> ceiling(work.resolve("ceiling-" + r), rows, partitions), records);
                Measured sink = Measured.of(() -> sinkThroughput(broker, topic, work.resolve("lake-" + r), records,
                    partitions, r, writerThreads), records);
                System.out.printf("round %d%s: ceiling %s; sink %s; ratio %.2f, CPU ratio %.2f%n", round,
                    round == 0 ? " (warm-up)" : "", ceiling, sink, sink.perSecond() / ceiling.perSecond(),
                    ceiling.cpuNanosPerRecord() / sink.cpuNanosPerRecord());
                if (round > 0) {
                    ratios[round - 1] = sink.perSecond() / ceiling.perSecond();
                    cpuRatios[round - 1] = ceiling.cpuNanosPerRecord() / sink.cpuNanosPerRecord();
                }
            }
            System.out.printf("plain consumer draining the same topic: %,.0f records/s (no writing; for attribution)%n",
                consumerOnly(broker, topic, partitions, records));
            long freshness = freshness(broker, work, partitions, rate, seconds, rotateMs);
            System.out.printf("freshness at %,d records/s for %d s: max %d ms (rotate.interval.ms=%d, goal <= %d)%n",
                rate, seconds, freshness, rotateMs, rotateMs + 1000);
            Arrays.sort(ratios);
            Arrays.sort(cpuRatios);
            System.out.printf("RESULT sink_ratio=%.2f cpu_ratio=%.2f freshness_max_ms=%d rotate_interval_ms=%d%n",
                ratios[rounds / 2], cpuRatios[rounds / 2], freshness, rotateMs);
        } finally {
            FileUtil.fullyDelete(work.toFile()); // the topic and the datasets: gigabytes per run
        }
    }

    private static int intArg(String[] args, int index, int otherwise) {
        return args.length > index ? Integer.parseInt(args[index]) : otherwise;
    }

    /** The sink settings of the throughput rounds; the ceiling takes its Parquet settings from them. */
    private static SinkConfig drainConfig(SinkTestBroker broker, String topic, Path root, int round, int perPartition,
                                          int writerThreads) {
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "drain-sink-" + round, root);
        props.put(SinkConfig.FLUSH_SIZE, String.valueOf(perPartition));
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "600000");
        props.put(SinkConfig.STATUS_INTERVAL_MS, "100");
        props.put(SinkConfig.SINK_MEMORY_BYTES, String.valueOf(512L << 20));
        props.put(SinkConfig.WRITER_THREADS, String.valueOf(writerThreads));
        return new SinkConfig(props);
    }

    /** A measured side: records/s over its own clock, and the whole process's CPU time per record meanwhile. */
    private record Measured(double perSecond, double cpuNanosPerRecord) {
        interface Side {
            double recordsPerSecond() throws Exception;
        }

        // Process CPU: on a loaded machine a side with more threads gets more of the cores, so
        // records/s alone flatters the sink; CPU per record does not depend on the share. The
        // sink's includes the broker serving it, the ceiling's does not.
        static Measured of(Side side, int records) throws Exception {
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuBefore = os.getProcessCpuTime();
            double perSecond = side.recordsPerSecond();
            return new Measured(perSecond, (os.getProcessCpuTime() - cpuBefore) / (double) records);
        }

        @Override
        public String toString() {
            return String.format("%,.0f records/s, %.2f us CPU/record", perSecond, cpuNanosPerRecord / 1000);
        }
    }

    /** Keys and values as {@link TestLoad} produces them, made before the clock starts. */
    private record Rows(List<byte[]> keys, List<byte[]> values) {
        static Rows likeTheTopic(int records) {
            List<byte[]> keys = new ArrayList<>(records);
            List<byte[]> values = new ArrayList<>(records);
            for (int i = 0; i < records; i++) {
                keys.add(("k" + i).getBytes(StandardCharsets.UTF_8));
                values.add(TestLoad.value());
            }
            return new Rows(keys, values);
        }
    }

    private static double ceiling(java.nio.file.Path dir, Rows rows, int partitions) throws Exception {
        RecordConverter converter = RecordConverter.raw();
        Configuration conf = new Configuration();
        int records = rows.keys().size();
        SinkConfig sinkSettings = new SinkConfig(Map.of(SinkConfig.BOOTSTRAP_SERVERS, "unused:1", SinkConfig.TOPICS, "t",
            SinkConfig.GROUP_ID, "g", SinkConfig.OUTPUT_DIR, dir.toString()));
        List<ParquetWriter<GenericRecord>> writers = new ArrayList<>();
        long start = System.nanoTime();
        for (int p = 0; p < partitions; p++) {
            writers.add(AvroParquetWriter.<GenericRecord>builder(HadoopOutputFile.fromPath(
                    new Path(dir.resolve("p" + p + ".parquet").toUri()), conf))
                .withSchema(converter.schema()).withConf(conf)
                .withCompressionCodec(ParquetWriterFactory.codec(sinkSettings.parquetCodec()))
                .withPageSize(sinkSettings.parquetPageBytes())
                .withRowGroupSize(ParquetWriterFactory.DEFAULT_ROW_GROUP_BYTES)
                .withWriteMode(ParquetFileWriter.Mode.CREATE).build());
        }
        long now = System.currentTimeMillis();
        RecordHeaders noHeaders = new RecordHeaders();
        for (int i = 0; i < records; i++) {
            int p = i % partitions;
            writers.get(p).write(converter.convert("drain", p, i / partitions, now, rows.keys().get(i), rows.values().get(i),
                noHeaders));
        }
        for (ParquetWriter<GenericRecord> w : writers) {
            w.close();
        }
        return records / ((System.nanoTime() - start) / 1e9);
    }

    private static double sinkThroughput(SinkTestBroker broker, String topic, java.nio.file.Path dir, int records,
                                         int partitions, int round, int writerThreads) throws Exception {
        Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
        Path root = new Path(dir.toUri());
        SinkConfig config = drainConfig(broker, topic, root, round, records / partitions, writerThreads);
        Configuration conf = new Configuration();
        try (RunningSink sink = RunningSink.start(config)) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            long firstRecord = 0;
            while (System.nanoTime() < deadline) {
                // Status snapshots come every 100 ms: the start and the end are both seen up to 100 ms late.
                List<PartitionStatus> status = sink.sink().status();
                if (firstRecord == 0 && status.stream().anyMatch(s -> s.recordsPerSecond() > 0)) {
                    firstRecord = System.nanoTime();
                }
                if (status.stream().mapToLong(PartitionStatus::recordsCommitted).sum() == records) {
                    double perSecond = records / ((System.nanoTime() - firstRecord) / 1e9);
                    if (!SinkTests.ledger(root, topic, conf).equals(ends)) {
                        throw new IllegalStateException("all records committed but the ledger is not at the end offsets");
                    }
                    return perSecond;
                }
                TimeUnit.MILLISECONDS.sleep(10);
            }
            throw new IllegalStateException("the sink did not drain " + records + " records in 5 minutes");
        }
    }

    private static double consumerOnly(SinkTestBroker broker, String topic, int partitions, int records) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 50 << 20), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            long start = System.nanoTime();
            long seen = 0;
            while (seen < records) {
                seen += consumer.poll(java.time.Duration.ofMillis(100)).count();
            }
            return records / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static long freshness(SinkTestBroker broker, java.nio.file.Path work, int partitions, int rate, int seconds,
                                  long rotateMs) throws Exception {
        String topic = "steady";
        broker.createTopic(topic, partitions);
        Path root = new Path(work.resolve("steady-lake").toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "steady-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, "10000000");
        props.put(SinkConfig.ROTATE_INTERVAL_MS, String.valueOf(rotateMs));
        try (RunningSink sink = RunningSink.start(props)) {
            while (sink.sink().status().size() < partitions) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            try (TestLoad load = TestLoad.start(broker.bootstrapServers(), topic, partitions, (long) rate * seconds, rate)) {
                load.await(java.time.Duration.ofSeconds(seconds + 60L));
            }
            TimeUnit.MILLISECONDS.sleep(rotateMs + 1500);
            return sink.sink().status().stream().mapToLong(PartitionStatus::maxVisibleDelayMs).max().orElse(-1);
        }
    }
}
