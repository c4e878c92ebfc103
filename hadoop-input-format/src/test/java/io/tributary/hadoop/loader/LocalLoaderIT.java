package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.CommitPoint;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.OffsetLedger;
import io.tributary.hadoop.dataset.ShreddedRow;
import io.tributary.hadoop.dataset.ValueDecodingException;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.input.MapredTopicInputFormat;
import io.tributary.hadoop.input.TopicInputFormat;
import io.tributary.hadoop.input.TopicRecordWritable;
import io.tributary.hadoop.testing.BrokerExtension;
import io.tributary.hadoop.testing.Datasets;
import io.tributary.hadoop.testing.LocalJobs;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.util.ToolRunner;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The loader end to end with Hadoop's local job runner on the local filesystem. */
class LocalLoaderIT {
    private static final long HOUR = TimeUnit.HOURS.toMillis(1);
    @RegisterExtension
    static final BrokerExtension BROKER = new BrokerExtension();

    @TempDir
    java.nio.file.Path work;

    @Test
    void dryRunPrintsEverySplitAndChangesNothingThenMaxMapsBoundsTheRealLoad() throws Exception {
        BROKER.broker().createTopic("planned", 3);
        BROKER.broker().produce("planned", 3, 20_000, System.currentTimeMillis() - HOUR, 1, (p, i) -> bytes("p-" + i));
        Path output = new Path(work.resolve("planned-lake").toUri());
        Configuration conf = LocalJobs.conf(work);
        String[] target = {"--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "planned", "--output", output.toString()};

        Run byDefault = load(conf, concat(target, "--dry-run"));
        assertThat(byDefault.exitCode).as(byDefault.err).isZero();
        assertThat(byDefault.out).contains("plan: 3 splits (map tasks) for 60000 offsets of planned in 3 of 3 partitions",
            "split 1: 20000 offsets, [partition 0 [0, 20000)]", "split 3: 20000 offsets, [partition 2 [0, 20000)]", "dry run: nothing was submitted");

        Run atLeastSix = load(conf, concat(target, "--dry-run", "--min-maps", "6"));
        assertThat(atLeastSix.out).contains("plan: 6 splits", "split 6: 10000 offsets, [partition 2 [10000, 20000)]");
        assertThat(ledger(output, "planned", conf)).isEmpty();
        assertThat(FileSystem.getLocal(conf).exists(output)).as("a dry run writes nothing").isFalse();

        Run atMostTwo = load(conf, concat(target, "--max-maps", "2"));
        assertThat(atMostTwo.exitCode).as(atMostTwo.err).isZero();
        assertThat(atMostTwo.out).contains("plan: 2 splits", "running job job_local", "loaded 60000 records",
            "map tasks: 2\n", "dataset: " + new Path(output, "planned"));
        Datasets.assertEveryOffsetOnce(output, "planned", 3, 20_000, conf);
    }

    private static String[] concat(String[] base, String... more) {
        List<String> all = new ArrayList<>(List.of(base));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void loadsEveryOffsetOnceWithManySplitsPerPartitionThenOnlyTheNewRecords() throws Exception {
        BROKER.broker().createTopic("orders", 3);
        long threeHoursAgo = System.currentTimeMillis() - 3 * HOUR;
        BROKER.broker().produce("orders", 3, 10_000, threeHoursAgo, HOUR / 10_000, (p, i) -> bytes("order-" + i));
        Path output = new Path(work.resolve("lake").toUri());
        Configuration conf = LocalJobs.conf(work);

        Run first = load(conf, "-D", InputConfig.SPLIT_MAX_RECORDS + "=1500", "--bootstrap-server", BROKER.broker().bootstrapServers(),
            "--topic", "orders", "--output", output.toString());
        assertThat(first.exitCode).as(first.err).isZero();
        assertThat(first.out).contains("loaded 30000 records", "lost ranges: none", "lag: 0 offsets left for the next load",
            "took: ");
        Datasets.assertEveryOffsetOnce(output, "orders", 3, 10_000, conf);
        long parquetBytes = 0;
        for (Path file : Datasets.dataFiles(output, "orders", conf)) {
            parquetBytes += FileSystem.getLocal(conf).getFileStatus(file).getLen();
        }
        assertThat(first.out).contains(" files (" + parquetBytes + " bytes of Parquet)");
        assertThat(Datasets.dataFiles(output, "orders", conf)).as("7 splits per partition, records over 3-4 hour buckets")
            .hasSizeGreaterThanOrEqualTo(21);
        assertThat(ledger(output, "orders", conf)).isEqualTo(Map.of(0, 10_000L, 1, 10_000L, 2, 10_000L));
        assertThat(FileSystem.getLocal(conf).listStatus(DatasetLayout.utc(output).jobsDir("orders")))
            .as("job staging left behind").isEmpty();

        BROKER.broker().produce("orders", 3, 1_000, System.currentTimeMillis() - HOUR, 1, (p, i) -> bytes("later-" + i));
        Run second = load(conf, "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "orders", "--output", output.toString());
        assertThat(second.exitCode).as(second.err).isZero();
        assertThat(second.out).contains("loaded 3000 records", "lag: 0 offsets left for the next load");
        Datasets.assertEveryOffsetOnce(output, "orders", 3, 11_000, conf);
        assertThat(ledger(output, "orders", conf)).isEqualTo(Map.of(0, 11_000L, 1, 11_000L, 2, 11_000L));

        Run third = load(conf, "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "orders", "--output", output.toString());
        assertThat(third.exitCode).as(third.err).isZero();
        assertThat(third.out).contains("loaded 0 records", "ranges loaded: none");
        Datasets.assertEveryOffsetOnce(output, "orders", 3, 11_000, conf);

        Run again = load(conf, "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "orders", "--output", output.toString(),
            "--start", "earliest");
        assertThat(again.exitCode).isEqualTo(1);
        assertThat(again.err).contains("offsets orders-0 [0, 11000), orders-1 [0, 11000), orders-2 [0, 11000) are already in the dataset");
        Datasets.assertEveryOffsetOnce(output, "orders", 3, 11_000, conf);
    }

    @Test
    void aFailedJobLeavesTheDatasetAsItWas() throws Exception {
        BROKER.broker().createTopic("fragile", 2);
        BROKER.broker().produce("fragile", 2, 1_500, System.currentTimeMillis() - HOUR, 1, (p, i) -> bytes("v" + i));
        Path output = new Path(work.resolve("fragile-lake").toUri());
        Configuration conf = LocalJobs.conf(work);
        String[] args = {"--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "fragile", "--output", output.toString()};
        assertThat(load(conf, args).exitCode()).isZero();
        BROKER.broker().produce("fragile", 2, 1_500, System.currentTimeMillis() - HOUR, 1, (p, i) -> bytes("w" + i));

        // The local job runner does not retry: the first attempt's failure, after writing part of its split, fails the job.
        String[] failing = new String[args.length + 2];
        failing[0] = "-D";
        failing[1] = org.apache.hadoop.mapreduce.MRJobConfig.MAP_CLASS_ATTR + "=" + FailFirstAttemptMapper.class.getName();
        System.arraycopy(args, 0, failing, 2, args.length);
        Run failed = load(conf, failing);

        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.err()).contains("failed", "the dataset is unchanged");
        Datasets.assertEveryOffsetOnce(output, "fragile", 2, 1_500, conf);
        assertThat(ledger(output, "fragile", conf)).isEqualTo(Map.of(0, 1_500L, 1, 1_500L));
        assertThat(FileSystem.getLocal(conf).listStatus(DatasetLayout.utc(output).jobsDir("fragile"))).as("staging left behind").isEmpty();
    }

    // E.g. the NameNode unreachable during the renames: the job fails, but its offsets are in the ledger.
    @Test
    void aJobThatFailsAfterItsLedgerAdvanceSaysItsLoadIsInTheDataset() throws Exception {
        BROKER.broker().createTopic("late-failure", 2);
        BROKER.broker().produce("late-failure", 2, 1_000, System.currentTimeMillis() - HOUR, 1, (p, i) -> bytes("v" + i));
        Path output = new Path(work.resolve("late-failure-lake").toUri());
        Configuration conf = LocalJobs.conf(work);
        Run run = loadFailingAfterTheLedgerAdvance(conf, "--bootstrap-server", BROKER.broker().bootstrapServers(),
            "--topic", "late-failure", "--output", output.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("failed after its ledger advance", "late-failure-0 [0, 1000)")
            .doesNotContain("the dataset is unchanged");
        assertThat(ledger(output, "late-failure", conf)).isEqualTo(Map.of(0, 1_000L, 1, 1_000L));
        Datasets.assertEveryOffsetOnce(output, "late-failure", 2, 1_000, conf); // the job's abort finished its commit
    }

    @Test
    void decodesJsonValuesWithTheGivenSchema() throws Exception {
        BROKER.broker().createTopic("typed", 1);
        BROKER.broker().produce("typed", 1, 50, System.currentTimeMillis() - HOUR, 1,
            (p, i) -> bytes("{\"id\": " + i + ", \"name\": \"n" + i + "\"}"));
        java.nio.file.Path schema = Files.writeString(work.resolve("value.avsc"),
            "{\"type\":\"record\",\"name\":\"V\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"}]}");
        Path output = new Path(work.resolve("typed-lake").toUri());
        Configuration conf = LocalJobs.conf(work);

        Run run = load(conf, "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "typed", "--output", output.toString(),
            "--start", "earliest", "--value-schema", schema.toString(), "--value-format", "json", "--codec", "zstd");
        assertThat(run.exitCode).as(run.err).isZero();
        List<GenericRecord> rows = new ArrayList<>();
        for (Path file : Datasets.dataFiles(output, "typed", conf)) {
            rows.addAll(Datasets.rows(file, conf));
        }
        assertThat(rows).hasSize(50).allSatisfy(r -> {
            assertThat(r.get("id")).isEqualTo(r.get("offset"));
            assertThat(r.get("name")).hasToString("n" + r.get("offset"));
        });
        assertThat(rows.get(0).getSchema().getFields()).extracting(f -> f.name())
            .containsExactly("topic", "partition", "offset", "timestamp", "key", "value", "headers", "id", "name");
    }

    @Test
    void aValueThatDoesNotDecodeFailsTheReadAtThatRecordAndTheLoadChangesNothing() throws Exception {
        BROKER.broker().createTopic("garbled", 1);
        BROKER.broker().produce("garbled", 1, 3_000, System.currentTimeMillis() - HOUR, 1,
            (p, i) -> bytes(i == 2_345 ? "{\"id\": oops" : "{\"id\": " + i + "}"));
        java.nio.file.Path schema = Files.writeString(work.resolve("id.avsc"),
            "{\"type\":\"record\",\"name\":\"V\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}");
        Path output = new Path(work.resolve("garbled-lake").toUri());
        Configuration conf = LocalJobs.conf(work);

        // Rows are decoded on the fetch thread (prefetch is on by default): the failure must still fail the task.
        Run run = load(conf, "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "garbled", "--output", output.toString(),
            "--start", "earliest", "--value-schema", schema.toString(), "--value-format", "json");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("failed", "the dataset is unchanged");
        assertThat(ledger(output, "garbled", conf)).isEmpty();
        assertThat(Datasets.dataFiles(output, "garbled", conf)).isEmpty();

        // The local job runner reports no task diagnostics: read the split as the failed task did.
        JobConf job = new JobConf(conf);
        TopicInputFormat.configure(job, BROKER.broker().bootstrapServers(), "garbled", "earliest");
        job.set(InputConfig.RECORD_PREPARER, DatasetRowPreparer.Factory.class.getName());
        job.set(LoaderConfig.VALUE_SCHEMA, Files.readString(schema));
        job.set(LoaderConfig.VALUE_FORMAT, "json");
        MapredTopicInputFormat format = new MapredTopicInputFormat();
        InputSplit[] splits = format.getSplits(job, 1);
        assertThat(splits).hasSize(1);
        // The rows before the bad value arrive decoded and shredded: written as they are, they hold the decoded ids.
        LoaderConfig config = new LoaderConfig(job);
        Path before = new Path(work.resolve("before-the-bad-value.parquet").toUri());
        try (RecordReaderCloser reader = new RecordReaderCloser(format.getRecordReader(splits[0], job, Reporter.NULL));
             ParquetWriter<ShreddedRow> rows = config.writerFactory().openShredded(before, config.converter().schema())) {
            LongWritable key = reader.reader.createKey();
            TopicRecordWritable value = reader.reader.createValue();
            for (long offset = 0; offset < 2_345; offset++) {
                assertThat(reader.reader.next(key, value)).isTrue();
                rows.write((ShreddedRow) value.prepared());
            }
            assertThatThrownBy(() -> reader.reader.next(key, value)).isInstanceOf(ValueDecodingException.class)
                .hasMessageContaining("value of garbled-0 at offset 2345 does not decode");
        }
        assertThat(Datasets.rows(before, conf)).hasSize(2_345).allSatisfy(r -> assertThat(r.get("id")).isEqualTo(r.get("offset")));
    }

    @Test
    void oldMapredApiReadsTheSamePlan() throws Exception {
        BROKER.broker().createTopic("legacy", 2);
        BROKER.broker().produce("legacy", 2, 2_500, System.currentTimeMillis() - HOUR, 1, (p, i) -> bytes("v" + i));
        JobConf job = new JobConf(LocalJobs.conf(work));
        job.set(InputConfig.BOOTSTRAP_SERVERS, BROKER.broker().bootstrapServers());
        job.set(InputConfig.TOPIC, "legacy");
        job.set(InputConfig.START, "earliest");
        job.setLong(InputConfig.SPLIT_MAX_RECORDS, 1_000);

        MapredTopicInputFormat format = new MapredTopicInputFormat();
        InputSplit[] splits = format.getSplits(job, 1);
        assertThat(splits).as("3 splits per partition: a busy partition's 500-offset tail is not packed").hasSize(6);
        Map<Integer, BitSet> seen = new HashMap<>();
        for (InputSplit split : splits) {
            try (RecordReaderCloser reader = new RecordReaderCloser(format.getRecordReader(split, job, Reporter.NULL))) {
                LongWritable key = reader.reader.createKey();
                TopicRecordWritable value = reader.reader.createValue();
                while (reader.reader.next(key, value)) {
                    BitSet offsets = seen.computeIfAbsent(value.partition(), p -> new BitSet());
                    assertThat(offsets.get((int) key.get())).isFalse();
                    offsets.set((int) key.get());
                }
                assertThat(reader.reader.getProgress()).isEqualTo(1f);
            }
        }
        assertThat(seen.values()).allSatisfy(offsets -> assertThat(offsets.cardinality()).isEqualTo(2_500));
    }

    static Map<Integer, Long> ledger(Path output, String topic, Configuration conf) throws Exception {
        return OffsetLedger.open(DatasetLayout.utc(output), topic, conf).read().nextOffsets();
    }

    static Run load(Configuration conf, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ToolRunner.run(new Configuration(conf), new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)), args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A load whose job commit throws right after its ledger advance. */
    static Run loadFailingAfterTheLedgerAdvance(Configuration conf, String... args) throws Exception {
        CommitPoint.listen((writer, point) -> {
            if (writer.equals(JobCommit.WRITER) && point == CommitPoint.AFTER_LEDGER) {
                throw new IllegalStateException("injected: the commit fails after the ledger advance");
            }
        });
        try {
            return load(conf, args);
        } finally {
            CommitPoint.listen(null);
        }
    }

    record Run(int exitCode, String out, String err) {
    }

    private record RecordReaderCloser(RecordReader<LongWritable, TopicRecordWritable> reader) implements AutoCloseable {
        @Override
        public void close() throws java.io.IOException {
            reader.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
