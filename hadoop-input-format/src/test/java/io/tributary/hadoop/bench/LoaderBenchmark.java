package io.tributary.hadoop.bench;

import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.loader.LoaderConfig;
import io.tributary.hadoop.loader.TopicLoader;
import io.tributary.hadoop.testing.LocalJobs;
import io.tributary.hadoop.testing.TestBroker;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Loader records/s into Parquet divided by the ceiling of this step: writing the same rows,
 * already in memory, straight with AvroParquetWriter. Snappy, one split and one file per
 * partition; the ceiling writes with one thread. The loader time is
 * the whole tool run: planning, job setup, reading from Kafka, converting, writing, committing.
 * The fourth argument sets how many maps the local job runner runs at once (default 1, the
 * like-for-like comparison; the loader itself uses every core when it is not set).
 *
 * <pre>
 * mvn -B -q -pl hadoop-input-format -am test-compile
 * mvn -B -q -pl hadoop-input-format dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -Xmx3g -cp hadoop-input-format/target/test-classes:hadoop-input-format/target/classes:$(cat /tmp/cp.txt) \
 *     io.tributary.hadoop.bench.LoaderBenchmark [records, default 2000000] [value bytes, default 100] [rounds, default 3] [local maps, default 1]
 * </pre>
 */
public final class LoaderBenchmark {
    private static final int PARTITIONS = 4;
    private static final String TOPIC = "bench";

    private LoaderBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int valueBytes = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int localMaps = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        java.nio.file.Path work = Files.createTempDirectory("loader-bench");
        try (TestBroker broker = TestBroker.start(work.resolve("kafka"))) {
            broker.createTopic(TOPIC, PARTITIONS);
            byte[] value = new byte[valueBytes];
            Arrays.fill(value, (byte) 'x');
            broker.produce(TOPIC, PARTITIONS, records / PARTITIONS, System.currentTimeMillis() - 600_000, 0, (p, i) -> value);
            int total = records / PARTITIONS * PARTITIONS;
            List<List<GenericRecord>> rows = rowsInMemory(broker.bootstrapServers(), total);

            double bestLoader = 0;
            double bestCeiling = 0;
            for (int round = 1; round <= rounds; round++) {
                double loader = loaderRecordsPerSecond(broker.bootstrapServers(), work.resolve("lake-" + round), total, localMaps);
                double ceiling = writerRecordsPerSecond(rows, work.resolve("ceiling-" + round));
                System.out.printf("round %d: loader %.0f records/s, AvroParquetWriter from memory %.0f records/s, ratio %.2f%n",
                    round, loader, ceiling, loader / ceiling);
                bestLoader = Math.max(bestLoader, loader);
                bestCeiling = Math.max(bestCeiling, ceiling);
            }
            System.out.printf("best of %d: loader %.0f records/s, ceiling %.0f records/s, ratio %.2f (%d records of %d value bytes, %d partitions, %d local maps)%n",
                rounds, bestLoader, bestCeiling, bestLoader / bestCeiling, total, valueBytes, PARTITIONS, localMaps);
        }
    }

    private static double loaderRecordsPerSecond(String bootstrap, java.nio.file.Path work, int expected, int localMaps) throws Exception {
        Configuration conf = LocalJobs.conf(work);
        conf.setInt("mapreduce.local.map.tasks.maximum", localMaps);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int code = ToolRunner.run(conf, new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8), System.err), new String[] {
            "-D", InputConfig.SPLIT_MAX_RECORDS + "=" + expected / PARTITIONS, "-D", InputConfig.SPLIT_PACK_RECORDS + "=0",
            "-D", LoaderConfig.PARQUET_CODEC + "=snappy",
            "--bootstrap-server", bootstrap, "--topic", TOPIC, "--output", work.resolve("lake").toUri().toString(), "--start", "earliest"});
        double seconds = (System.nanoTime() - start) / 1e9;
        if (code != 0 || !out.toString(StandardCharsets.UTF_8).contains("loaded " + expected + " records")) {
            throw new IllegalStateException("loader run failed: " + out);
        }
        return expected / seconds;
    }

    private static double writerRecordsPerSecond(List<List<GenericRecord>> partitions, java.nio.file.Path work) throws Exception {
        Configuration conf = new Configuration();
        ParquetWriterFactory writers = new ParquetWriterFactory(conf, ParquetWriterFactory.codec("snappy"), LoaderConfig.DEFAULT_ROW_GROUP_BYTES);
        long count = 0;
        long start = System.nanoTime();
        for (int p = 0; p < partitions.size(); p++) {
            try (ParquetWriter<GenericRecord> writer = writers.open(new Path(work.resolve("p" + p + ".parquet").toUri()),
                    partitions.get(p).get(0).getSchema())) {
                for (GenericRecord row : partitions.get(p)) {
                    writer.write(row);
                    count++;
                }
            }
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }

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
}
