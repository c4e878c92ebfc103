package io.tributary.sink;

import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.RecordConverter;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The sink's benchmark (docs/benchmarks.md), against Apache Kafka 4.4 in this JVM on the local
 * filesystem:
 * <ol>
 *   <li>ceiling: the same kind of rows (100 random value bytes, converted by the same converter)
 *       written straight from memory with AvroParquetWriter, one file per partition;</li>
 *   <li>sink: records/s of the sink draining a pre-filled topic (from its first fetched record
 *       to the ledger covering everything);</li>
 *   <li>freshness: a producer at a steady rate while the sink runs; the largest delay between a
 *       record's timestamp and the commit that made it visible, against rotate.interval.ms.</li>
 * </ol>
 * Arguments (all optional): records partitions rate-per-second seconds rotate-interval-ms.
 * Last line: {@code RESULT sink_ratio=<x> freshness_max_ms=<y> rotate_interval_ms=<z>}.
 */
public final class SinkBenchmark {
    private SinkBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 5_000;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        long rotateMs = args.length > 4 ? Long.parseLong(args[4]) : 2_000;
        java.nio.file.Path work = Files.createTempDirectory("sink-bench");
        try (SinkTestBroker broker = SinkTestBroker.start(work.resolve("kafka"))) {
            double ceiling = ceiling(work.resolve("ceiling"), records, partitions);
            System.out.printf("ceiling (AvroParquetWriter from memory): %,.0f records/s%n", ceiling);
            double sink = sinkThroughput(broker, work, records, partitions);
            System.out.printf("sink draining a full topic:            %,.0f records/s%n", sink);
            System.out.printf("plain consumer draining the same topic: %,.0f records/s (no writing; for attribution)%n",
                consumerOnly(broker, "drain", partitions, records));
            long freshness = freshness(broker, work, partitions, rate, seconds, rotateMs);
            System.out.printf("freshness at %,d records/s for %d s: max %d ms (rotate.interval.ms=%d, goal <= %d)%n",
                rate, seconds, freshness, rotateMs, rotateMs + 1000);
            System.out.printf("RESULT sink_ratio=%.2f freshness_max_ms=%d rotate_interval_ms=%d%n", sink / ceiling, freshness, rotateMs);
        }
    }

    private static double ceiling(java.nio.file.Path dir, int records, int partitions) throws Exception {
        RecordConverter converter = RecordConverter.raw();
        Configuration conf = new Configuration();
        // The same kind of values as the topic's (random, so Parquet's dictionary cannot shortcut them),
        // made before the clock starts.
        List<byte[]> values = new ArrayList<>(records);
        for (int i = 0; i < records; i++) {
            values.add(TestLoad.value());
        }
        List<ParquetWriter<GenericRecord>> writers = new ArrayList<>();
        long start = System.nanoTime();
        for (int p = 0; p < partitions; p++) {
            writers.add(AvroParquetWriter.<GenericRecord>builder(HadoopOutputFile.fromPath(
                    new Path(dir.resolve("p" + p + ".parquet").toUri()), conf))
                .withSchema(converter.schema()).withConf(conf)
                .withCompressionCodec(ParquetWriterFactory.DEFAULT_CODEC)
                .withWriteMode(ParquetFileWriter.Mode.CREATE).build());
        }
        long now = System.currentTimeMillis();
        RecordHeaders noHeaders = new RecordHeaders();
        for (int i = 0; i < records; i++) {
            int p = i % partitions;
            writers.get(p).write(converter.convert("bench", p, i / partitions, now,
                ("k" + i).getBytes(StandardCharsets.UTF_8), values.get(i), noHeaders));
        }
        for (ParquetWriter<GenericRecord> w : writers) {
            w.close();
        }
        return records / ((System.nanoTime() - start) / 1e9);
    }

    private static double sinkThroughput(SinkTestBroker broker, java.nio.file.Path work, int records, int partitions)
            throws Exception {
        String topic = "drain";
        broker.createTopic(topic, partitions);
        TestLoad.produce(broker.bootstrapServers(), topic, partitions, records);
        Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
        Path root = new Path(work.resolve("drain-lake").toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "drain-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, String.valueOf(records / partitions / 4 + 1));
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "60000");
        props.put(SinkConfig.STATUS_INTERVAL_MS, "100");
        props.put(SinkConfig.SINK_MEMORY_BYTES, String.valueOf(512L << 20));
        Configuration conf = new Configuration();
        try (RunningSink sink = RunningSink.start(props)) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            long firstRecord = 0;
            while (System.nanoTime() < deadline) {
                if (firstRecord == 0 && sink.sink().status().stream().anyMatch(s -> s.recordsPerSecond() > 0)) {
                    firstRecord = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(100); // one status interval
                }
                if (SinkTests.ledger(root, topic, conf).equals(ends)) {
                    return records / ((System.nanoTime() - firstRecord) / 1e9);
                }
                TimeUnit.MILLISECONDS.sleep(20);
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
