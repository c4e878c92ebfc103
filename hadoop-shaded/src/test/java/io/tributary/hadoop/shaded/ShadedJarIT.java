package io.tributary.hadoop.shaded;

import io.tributary.hadoop.input.MapredTopicInputFormat;
import io.tributary.hadoop.input.TopicInputFormat;
import io.tributary.hadoop.input.TopicRecordWritable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded jar as its users add it to Spark 4.2 (local mode, as {@code --jars} does), Hive
 * (Spark's Hive support: embedded metastore and Hive's Parquet SerDe) and a MapReduce job of their
 * own (the local job runner): reads a topic through both InputFormats, and the dataset the loader
 * wrote. The broker and the loader run as processes of their own (bin/), so only Spark, Hive's
 * client and the shaded jar (plus kafka-clients, which this test produces with) are on this JVM's
 * class path. The code of docs/hadoop.md is this test's; {@code HadoopDocTest} holds them together.
 */
@Timeout(300)
class ShadedJarIT {
    private static final Path HOME = HadoopDoc.HOME;
    private static final String TOPIC = "pageviews";
    private static final int PARTITIONS = 3;
    private static final int PER_PARTITION = 1_000;
    private static BrokerProcess broker;
    private static SparkSession spark;
    private static Path dataset;
    private static Path work;
    private static Path replClasses;

    @BeforeAll
    static void startBrokerLoadTheDatasetAndStartSpark(@TempDir Path dir) throws Exception {
        broker = BrokerProcess.start(HOME, dir.resolve("broker"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < PER_PARTITION; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, p, null, ("view-" + i).getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
        dataset = dir.resolve("lake");
        load(dir, dataset);
        System.setProperty("derby.system.home", dir.resolve("derby").toString());
        replClasses = Files.createDirectories(dir.resolve("repl-classes"));
        spark = SparkSession.builder().master("local[2]").appName("tributary-spark-it")
            .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.warehouse.dir", dir.resolve("warehouse").toString())
            // As spark-shell sets it: executors load the classes of typed Scala from there (without it, its closures fail to deserialize).
            .config("spark.repl.class.outputDir", replClasses.toString())
            .config("spark.hadoop.javax.jdo.option.ConnectionURL", "jdbc:derby:;databaseName=" + dir.resolve("metastore") + ";create=true")
            .enableHiveSupport()
            .getOrCreate();
        work = dir;
    }

    @AfterAll
    static void stop() throws Exception {
        if (spark != null) {
            spark.stop();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theShadedJarHoldsOurClassesAndARelocatedKafkaClientAndNothingTheHostProvides() throws Exception {
        File jar = new File(TopicInputFormat.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(jar.getName()).startsWith("hadoop-shaded-").endsWith(".jar");
        try (ZipFile zip = new ZipFile(jar)) {
            List<String> classes = zip.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class")).toList();
            assertThat(classes).contains("io/tributary/shaded/org/apache/kafka/clients/consumer/KafkaConsumer.class",
                "io/tributary/hadoop/input/MapredTopicInputFormat.class", "io/tributary/hadoop/dataset/DatasetLayout.class");
            assertThat(classes).allMatch(n -> n.startsWith("io/tributary/"), "only our packages");
        }
    }

    @Test
    void newApiInputFormatReadsEveryRecordOnce() {
        String bootstrapServers = broker.bootstrapServers();
        // docs/hadoop.md: Spark newAPIHadoopRDD
        Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
        TopicInputFormat.configure(conf, bootstrapServers, "pageviews", "earliest");
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        JavaPairRDD<LongWritable, TopicRecordWritable> records =
            jsc.newAPIHadoopRDD(conf, TopicInputFormat.class, LongWritable.class, TopicRecordWritable.class);
        // Record readers reuse their objects: take the fields out before collecting or caching.
        List<String> ids = records
            .map(r -> r._2().partition() + "/" + r._2().offset() + "/" + new String(r._2().value(), StandardCharsets.UTF_8))
            .collect();
        // end
        assertThat(ids).hasSize(PARTITIONS * PER_PARTITION).doesNotHaveDuplicates().contains("0/0/view-0", "2/999/view-999");
    }

    @Test
    void oldApiInputFormatReadsEveryRecordOnce() {
        String bootstrapServers = broker.bootstrapServers();
        // docs/hadoop.md: Spark hadoopRDD
        JobConf conf = new JobConf(spark.sparkContext().hadoopConfiguration());
        TopicInputFormat.configure(conf, bootstrapServers, "pageviews", "earliest");
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        long distinct = jsc.hadoopRDD(conf, MapredTopicInputFormat.class, LongWritable.class, TopicRecordWritable.class)
            .map(r -> r._2().partition() + "/" + r._2().offset())
            .distinct().count();
        // end
        assertThat(distinct).isEqualTo(PARTITIONS * PER_PARTITION);
    }

    @Test
    void sparkReadsTheDatasetAsParquetWithItsHourPartitions() {
        String lake = dataset.toString();
        // docs/hadoop.md: Spark parquet
        Dataset<Row> rows = spark.read().parquet(lake + "/pageviews");
        Row seventh = rows.where("partition = 1 AND offset = 7").selectExpr("CAST(value AS STRING)").first();
        // end

        assertThat(rows.columns()).contains("topic", "partition", "offset", "timestamp", "key", "value", "headers", "dt", "hr");
        assertThat(rows.count()).isEqualTo(PARTITIONS * PER_PARTITION);
        assertThat(rows.select("partition", "offset").distinct().count()).isEqualTo(PARTITIONS * PER_PARTITION);
        assertThat(seventh.getString(0)).isEqualTo("view-7");
    }

    @Test
    void aSparkShellUserReadsTheTopicAndTheDatasetInScala() throws Exception {
        try (ScalaShell shell = new ScalaShell(testClassPath(), replClasses)) {
            shell.bind("spark", "org.apache.spark.sql.SparkSession", spark);
            // The user's own values, then docs/hadoop.md's scala block as written there: one input, one compile.
            shell.run(ScalaShell.stringVal("bootstrapServers", broker.bootstrapServers()) + ScalaShell.stringVal("lake", dataset.toString())
                + HadoopDoc.regions(HadoopDoc.SPARK_SHELL_SOURCE).get("Spark Scala"));

            List<String> everyRecord = IntStream.range(0, PARTITIONS).boxed()
                .flatMap(p -> IntStream.range(0, PER_PARTITION).mapToObj(offset -> p + "/" + offset + "/view-" + offset)).toList();
            assertThat((String[]) shell.value("ids")).containsExactlyInAnyOrderElementsOf(everyRecord);
            assertThat(((Dataset<?>) shell.value("rows")).count()).isEqualTo(PARTITIONS * PER_PARTITION);
            assertThat(((Row) shell.value("seventh")).getString(0)).isEqualTo("view-7");
        }
    }

    /** The class path of this test (failsafe starts it from a manifest-only jar): Spark's, the shaded jar and ours. */
    private static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    @Test
    void aMapReduceJobOfItsOwnCountsRecordsPerPartition() throws Exception {
        Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
        conf.set("mapreduce.framework.name", "local");
        conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve("mr-staging").toString());
        Path output = work.resolve("per-partition");

        // docs/hadoop.md: MapReduce
        Job job = Job.getInstance(conf, "records per partition");
        job.setJarByClass(RecordsPerPartition.class);
        TopicInputFormat.configure(job.getConfiguration(), broker.bootstrapServers(), "pageviews", "earliest");
        job.setInputFormatClass(TopicInputFormat.class);
        job.setMapperClass(RecordsPerPartition.class);
        job.setReducerClass(LongSumReducer.class);
        job.setOutputKeyClass(IntWritable.class);
        job.setOutputValueClass(LongWritable.class);
        FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));
        boolean done = job.waitForCompletion(false);
        // end

        assertThat(done).isTrue();
        assertThat(Files.readString(output.resolve("part-r-00000"))).isEqualTo("0\t1000\n1\t1000\n2\t1000\n");
    }

    // docs/hadoop.md: MapReduce mapper
    /** Counts a topic's records per partition: keys are offsets, values the records. */
    public static class RecordsPerPartition extends Mapper<LongWritable, TopicRecordWritable, IntWritable, LongWritable> {
        private final IntWritable partition = new IntWritable();
        private final LongWritable one = new LongWritable(1);

        @Override
        protected void map(LongWritable offset, TopicRecordWritable record, Context context) throws IOException, InterruptedException {
            partition.set(record.partition());
            context.write(partition, one);
        }
    }
    // end

    @Test
    void hiveReadsTheDatasetAsAnExternalParquetTableWithItsHourPartitions() throws Exception {
        String lake = "file:" + dataset;
        spark.conf().set("spark.sql.hive.convertMetastoreParquet", "false"); // Hive's own Parquet SerDe reads, not Spark's reader
        for (String statement : HadoopDoc.hiveStatements(lake)) { // docs/hadoop.md's SQL block, as written there
            spark.sql(statement);
        }

        assertThat(spark.sql("SHOW PARTITIONS pageviews").count()).isGreaterThanOrEqualTo(1);
        Row counts = spark.sql("SELECT COUNT(*), COUNT(DISTINCT `partition`, `offset`) FROM pageviews").first();
        assertThat(List.of(counts.getLong(0), counts.getLong(1))).containsOnly((long) PARTITIONS * PER_PARTITION);
        assertThat(spark.sql("SELECT CAST(value AS STRING) FROM pageviews WHERE `partition` = 2 AND `offset` = 5").first().getString(0))
            .isEqualTo("view-5");
    }

    /** bin/tributary-loader with the local job runner, as in docs/hadoop.md. */
    private static void load(Path dir, Path output) throws Exception {
        Path log = dir.resolve("loader.log");
        ProcessBuilder builder = new ProcessBuilder(List.of("bash", HOME.resolve("bin/tributary-loader").toString(),
            "-D", "hadoop.tmp.dir=" + dir.resolve("hadoop-tmp"), "-D", "mapreduce.jobtracker.staging.root.dir=" + dir.resolve("staging"),
            "--bootstrap-server", broker.bootstrapServers(), "--topic", TOPIC, "--output", output.toString()))
            .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("HADOOP_CONF_DIR");
        builder.environment().put("TRIBUTARY_JVM_OPTS", "-Xmx512m -Djava.io.tmpdir=" + dir);
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the loader did not finish in 180 s:\n" + Files.readString(log));
        }
        assertThat(process.exitValue()).as(Files.readString(log)).isZero();
    }
}
