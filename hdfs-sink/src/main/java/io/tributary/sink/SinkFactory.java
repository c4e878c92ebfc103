package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.NewestCommittedFiles;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.dataset.RecordSchema;
import io.tributary.hadoop.dataset.ValueFormat;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** Wires an {@link HdfsSink} from a {@link SinkConfig}: the consumer, the dataset and the limits. */
public final class SinkFactory {
    private static final long MIN_FETCH_BYTES = 1 << 20;
    private static final long MAX_FETCH_BYTES = 50L << 20;
    // One value per file: their dictionaries hold one entry. Any other column's dictionary would hold
    // up to a page of distinct values per open file, on the heap and outside the memory budget.
    private static final Set<String> CONSTANT_COLUMNS = Set.of(RecordSchema.TOPIC, RecordSchema.PARTITION);

    private SinkFactory() {
    }

    /** A sink ready to {@link HdfsSink#run()}; nothing is contacted until then except the dataset's filesystem. */
    public static HdfsSink create(SinkConfig config, Time time) throws IOException {
        Configuration conf = hadoopConf(config);
        Supplier<RecordConverter> converters = converters(config, conf);
        Admin admin = Admin.create(adminProps(config)); // for topic ids and open transactions; closed with the status
        DatasetTarget dataset;
        try {
            dataset = dataset(config, conf, converters.get().schema(), TopicIds.askingBrokers(admin));
        } catch (IOException | RuntimeException e) {
            admin.close();
            throw e;
        }

        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(config),
            new ByteArrayDeserializer(), new ByteArrayDeserializer());
        SinkLimits limits = new SinkLimits(config.rotationPolicy(), config.memoryBudgetBytes(), config.backoff());
        BadRecords badRecords = badRecords(config);
        List<PartitionWriter> partitionWriters = new ArrayList<>();
        for (int i = 0; i < config.writerThreads(); i++) {
            partitionWriters.add(new PartitionWriter(converters.get(), badRecords, limits.rotation(), time));
        }
        RetentionGaps gaps = new RetentionGaps(consumer, config.onMissing(), dataset.layout(), conf);
        SinkMonitor monitor = new SinkMonitor(config.groupId(), time);
        try {
            monitor.serve(config.httpListeners());
        } catch (IOException e) {
            consumer.close();
            badRecords.close();
            admin.close();
            throw e;
        }
        return new HdfsSink(consumer, listener -> {
            if (config.topicPattern().isPresent()) {
                consumer.subscribe(config.topicPattern().get(), listener);
            } else {
                consumer.subscribe(config.topics(), listener);
            }
        }, dataset, limits, badRecords, gaps, new WriterThreads(partitionWriters),
            new SinkStatus(StatusReporter.forProcess(config.statusIntervalMs(), config.consoleStatus(), time.milliseconds()),
                monitor, new OpenTransactionWatch(admin, time), time), monitor, time);
    }

    /** The dataset the sink writes, checked against no topic ids (tests without brokers). */
    static DatasetTarget dataset(SinkConfig config, Configuration conf, Schema schema) throws IOException {
        return dataset(config, conf, schema, TopicIds.UNKNOWN);
    }

    /** The dataset the sink writes: layout, writers with their memory cost, commit protocol and recovery. */
    static DatasetTarget dataset(SinkConfig config, Configuration conf, Schema schema, TopicIds topicIds) throws IOException {
        Path root = new Path(config.outputDir());
        FileSystem fs = root.getFileSystem(conf);
        DatasetLayout layout = new DatasetLayout(fs.makeQualified(root), config.zone());
        ParquetWriterFactory writers = new ParquetWriterFactory(conf, ParquetWriterFactory.codec(config.parquetCodec()),
            ParquetWriterFactory.DEFAULT_ROW_GROUP_BYTES, config.parquetPageBytes()).withDictionaryOnly(CONSTANT_COLUMNS);
        CommitProtocol protocol = new CommitProtocol(fs, layout, conf);
        ResumePositions resume = new ResumePositions(protocol, new NewestCommittedFiles(fs, layout, config.recoveryBuckets()), topicIds);
        return new DatasetTarget(layout, schema, writers, OpenFileCost.forPageBytes(config.parquetPageBytes()), protocol, resume);
    }

    static Configuration hadoopConf(SinkConfig config) {
        Configuration conf = new Configuration();
        // Hadoop's own shutdown hook would close the filesystem under the commit of our shutdown hook.
        conf.setBoolean("fs.automatic.close", false);
        config.passThrough(SinkConfig.HADOOP_PREFIX).forEach((k, v) -> conf.set(k, String.valueOf(v)));
        return conf;
    }

    /**
     * Consumer settings: offsets are committed only by the sink; no automatic reset, so a
     * position the log no longer has comes to {@link RetentionGaps} (a partition new to the
     * dataset is sought to the beginning explicitly); committed records only
     * ({@code read_committed}: a partition waits at its last stable offset while a transaction is
     * open there); fetch buffers are kept well inside the memory budget so many partitions fit a
     * small heap. The unprefixed security settings come next ({@link SinkConfig#clientSecurity()}),
     * and {@code consumer.*} settings override all of these but the reset, which {@link SinkConfig} refuses.
     */
    static Map<String, Object> consumerProps(SinkConfig config) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(SinkConfig.BOOTSTRAP_SERVERS)));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        long fetchBytes = Math.max(MIN_FETCH_BYTES, Math.min(MAX_FETCH_BYTES, config.memoryBudgetBytes() / 4));
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, (int) fetchBytes);
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, (int) Math.min(fetchBytes, 1 << 20));
        props.putAll(config.clientSecurity());
        props.putAll(config.passThrough(SinkConfig.CONSUMER_PREFIX));
        return props;
    }

    /** The admin client of the {@link OpenTransactionWatch}: the brokers and security settings of the consumer. */
    static Map<String, Object> adminProps(SinkConfig config) {
        Map<String, Object> props = new HashMap<>();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(SinkConfig.BOOTSTRAP_SERVERS)));
        props.putAll(config.clientSecurity());
        return props;
    }

    private static BadRecords badRecords(SinkConfig config) {
        if (config.badRecordPolicy() != BadRecordPolicy.DEAD_LETTER) {
            return new BadRecords(config.badRecordPolicy(), null, null);
        }
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(SinkConfig.BOOTSTRAP_SERVERS)));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.putAll(config.clientSecurity());
        props.putAll(config.passThrough(SinkConfig.PRODUCER_PREFIX));
        return new BadRecords(BadRecordPolicy.DEAD_LETTER,
            new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer()), config.deadLetterTopic());
    }

    /** Makes the converters, one per writer thread (they are not thread-safe); the schema file is read once. */
    private static Supplier<RecordConverter> converters(SinkConfig config, Configuration conf) throws IOException {
        if (config.valueSchemaFile().isEmpty()) {
            return RecordConverter::raw;
        }
        Path file = new Path(config.valueSchemaFile().get());
        String text;
        try (FSDataInputStream in = file.getFileSystem(conf).open(file)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Schema valueSchema = new Schema.Parser().parse(text);
        ValueFormat format = config.valueFormat();
        return () -> RecordConverter.decoding(valueSchema, format);
    }
}
