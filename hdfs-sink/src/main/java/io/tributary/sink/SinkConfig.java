package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetTopicName;
import io.tributary.hadoop.dataset.MissingPolicy;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.ValueFormat;
import io.tributary.http.HttpListeners;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

import java.net.InetSocketAddress;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The sink's configuration, every key declared once in {@link #DEFINITION}. Keys prefixed with
 * {@code consumer.}, {@code producer.} or {@code hadoop.} pass through (prefix removed) to the
 * Kafka consumer, the dead-letter producer and the Hadoop {@code Configuration}. kafka-clients'
 * security settings ({@code security.protocol}, {@code ssl.*}, {@code sasl.*}) given without a
 * prefix go to the consumer and the producer alike, so a secured cluster is configured once.
 */
public final class SinkConfig extends AbstractConfig {
    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String TOPICS = "topics";
    public static final String TOPICS_REGEX = "topics.regex";
    public static final String GROUP_ID = "group.id";
    public static final String OUTPUT_DIR = "output.dir";
    public static final String VALUE_SCHEMA = "value.schema";
    public static final String VALUE_FORMAT = "value.format";
    public static final String FLUSH_SIZE = "flush.size";
    public static final String FILE_MAX_BYTES = "file.max.bytes";
    public static final String ROTATE_INTERVAL_MS = "rotate.interval.ms";
    public static final String TIMEZONE = "timezone";
    public static final String SINK_MEMORY_BYTES = "sink.memory.bytes";
    public static final String PARQUET_CODEC = "parquet.codec";
    public static final String PARQUET_PAGE_BYTES = "parquet.page.bytes";
    public static final String BAD_RECORD_POLICY = "bad.record.policy";
    public static final String ON_MISSING = "on.missing";
    public static final String DEAD_LETTER_TOPIC = "dead.letter.topic";
    public static final String RETRY_BACKOFF_MS = "retry.backoff.ms";
    public static final String RETRY_BACKOFF_MAX_MS = "retry.backoff.max.ms";
    public static final String RECOVERY_BUCKETS = "recovery.buckets";
    public static final String STATUS_INTERVAL_MS = "status.interval.ms";
    public static final String STATUS_CONSOLE = "status.console";
    public static final String WRITER_THREADS = "writer.threads";
    public static final String HTTP_LISTENERS = HttpListeners.HTTP_LISTENERS;
    public static final int DEFAULT_WRITER_THREADS = 2;

    public static final String CONSUMER_PREFIX = "consumer.";
    public static final String PRODUCER_PREFIX = "producer.";
    public static final String HADOOP_PREFIX = "hadoop.";

    public static final ConfigDef DEFINITION = new ConfigDef()
        .define(BOOTSTRAP_SERVERS, Type.LIST, ConfigDef.NO_DEFAULT_VALUE, (name, value) -> {
            if (((List<?>) value).isEmpty()) {
                throw new ConfigException(name, value, "at least one host:port is required");
            }
        }, Importance.HIGH, "Brokers to bootstrap from, host:port,...")
        .define(TOPICS, Type.LIST, "", Importance.HIGH, "Topics to stream; or set topics.regex")
        .define(TOPICS_REGEX, Type.STRING, null, Importance.HIGH, "Java regex of the topics to stream, instead of topics")
        .define(GROUP_ID, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
            "Consumer group; sink processes with one group share the partitions")
        .define(OUTPUT_DIR, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
            "Dataset root: hdfs://..., file://... or a plain local path")
        .define(VALUE_SCHEMA, Type.STRING, null, Importance.MEDIUM,
            "Avro record schema file (.avsc, local or Hadoop path) to decode values into columns; unset keeps values raw")
        .define(VALUE_FORMAT, Type.STRING, "avro", ConfigDef.ValidString.in("avro", "avro_binary", "json"), Importance.MEDIUM,
            "Encoding of values when value.schema is set: avro (binary) or json")
        .define(FLUSH_SIZE, Type.INT, 100_000, Range.atLeast(1), Importance.HIGH,
            "Records of one partition after which its open files commit")
        .define(FILE_MAX_BYTES, Type.LONG, 128L << 20, Range.atLeast(1024), Importance.MEDIUM,
            "Size (buffered plus written) at which a file commits")
        .define(ROTATE_INTERVAL_MS, Type.LONG, 600_000L, Range.atLeast(100), Importance.HIGH,
            "Longest time a consumed record stays uncommitted: a timer commits open files after this, even with no new records")
        .define(TIMEZONE, Type.STRING, "UTC", Importance.MEDIUM, "Time zone of the dt=/hr= buckets")
        .define(SINK_MEMORY_BYTES, Type.LONG, -1L, Importance.HIGH,
            "Budget for the buffers of all open Parquet writers; the largest commits early when it is exceeded. "
                + "-1: a quarter of the maximum heap")
        .define(PARQUET_CODEC, Type.STRING, "snappy", Importance.LOW, "Parquet compression codec")
        .define(PARQUET_PAGE_BYTES, Type.INT, 64 * 1024, Range.atLeast(1024), Importance.LOW,
            "Parquet page size; every open file holds a few pages of buffers, so it sets the cost of an open file")
        .define(BAD_RECORD_POLICY, Type.STRING, "fail", ConfigDef.ValidString.in("fail", "skip", "dead-letter"), Importance.MEDIUM,
            "A value that does not decode: fail (stop the sink), skip (count it) or dead-letter (send to dead.letter.topic)")
        .define(ON_MISSING, Type.STRING, "fail", ConfigDef.ValidString.in("fail", "skip"), Importance.HIGH,
            "Records the log no longer has when the sink gets to them (retention or DeleteRecords took them, at a "
                + "restart or while the sink fell behind): fail (stop, exit 1, name topic, partition and range) or "
                + "skip (land the rest and record the range in _tributary/lost-ranges/, as the loader does)")
        .define(DEAD_LETTER_TOPIC, Type.STRING, null, Importance.MEDIUM, "Topic for bad records with bad.record.policy=dead-letter")
        .define(RETRY_BACKOFF_MS, Type.LONG, 500L, Range.atLeast(1), Importance.MEDIUM,
            "First wait before retrying a partition after a storage failure")
        .define(RETRY_BACKOFF_MAX_MS, Type.LONG, 30_000L, Range.atLeast(1), Importance.MEDIUM,
            "Longest wait between retries; the wait doubles up to this")
        .define(RECOVERY_BUCKETS, Type.INT, 48, Range.atLeast(1), Importance.LOW,
            "Newest hour buckets whose file names are cross-checked with the ledger on assignment")
        .define(STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
            "Interval of the status log lines")
        .define(STATUS_CONSOLE, Type.STRING, "auto", ConfigDef.CaseInsensitiveValidString.in("auto", "on", "off"), Importance.LOW,
            "One-line status rewritten on stdout every second: auto (only in a terminal), on or off")
        .define(WRITER_THREADS, Type.INT, DEFAULT_WRITER_THREADS, Range.between(1, 64), Importance.LOW,
            "Threads converting and writing records (a partition always on the same one) while the next batch is fetched")
        .define(HTTP_LISTENERS, Type.STRING, "", (name, value) -> {
            try {
                HttpListeners.parse((String) value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }, Importance.MEDIUM, "Where to serve GET /metrics (Prometheus text format) and the status page GET /: "
            + "comma-separated http://host:port (port 0: any free port); empty: no HTTP endpoint");

    public SinkConfig(Map<?, ?> props) {
        super(DEFINITION, props, false);
        if (topics().isEmpty() == topicPattern().isEmpty()) {
            throw new ConfigException("set exactly one of '" + TOPICS + "' and '" + TOPICS_REGEX + "'");
        }
        if (badRecordPolicy() == BadRecordPolicy.DEAD_LETTER && getString(DEAD_LETTER_TOPIC) == null) {
            throw new ConfigException(BAD_RECORD_POLICY + "=dead-letter needs " + DEAD_LETTER_TOPIC);
        }
        if (originals().containsKey(CONSUMER_PREFIX + ConsumerConfig.AUTO_OFFSET_RESET_CONFIG)) {
            throw new ConfigException(CONSUMER_PREFIX + ConsumerConfig.AUTO_OFFSET_RESET_CONFIG + " cannot be set: the sink resumes "
                + "where the dataset ends and a partition new to it starts at the earliest offset; for records the log no "
                + "longer has, set " + ON_MISSING + "=fail|skip");
        }
        for (String topic : topics()) {
            DatasetTopicName.problem(topic).ifPresent(problem -> {
                throw new ConfigException(problem);
            });
        }
        zone();
        ParquetWriterFactory.codec(getString(PARQUET_CODEC));
    }

    public List<String> topics() {
        return getList(TOPICS);
    }

    public Optional<Pattern> topicPattern() {
        String regex = getString(TOPICS_REGEX);
        if (regex == null || regex.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            throw new ConfigException(TOPICS_REGEX, regex, e.getDescription());
        }
    }

    public String groupId() {
        return getString(GROUP_ID);
    }

    public String outputDir() {
        return getString(OUTPUT_DIR);
    }

    public Optional<String> valueSchemaFile() {
        return Optional.ofNullable(getString(VALUE_SCHEMA));
    }

    public ValueFormat valueFormat() {
        return ValueFormat.parse(getString(VALUE_FORMAT));
    }

    public RotationPolicy rotationPolicy() {
        return new RotationPolicy(getInt(FLUSH_SIZE), getLong(FILE_MAX_BYTES), getLong(ROTATE_INTERVAL_MS));
    }

    public ZoneId zone() {
        try {
            return ZoneId.of(getString(TIMEZONE));
        } catch (DateTimeException e) {
            throw new ConfigException(TIMEZONE, getString(TIMEZONE), e.getMessage());
        }
    }

    /** The writer memory budget in bytes, resolving -1 to a quarter of the maximum heap. */
    public long memoryBudgetBytes() {
        long configured = getLong(SINK_MEMORY_BYTES);
        return configured > 0 ? configured : Runtime.getRuntime().maxMemory() / 4;
    }

    public String parquetCodec() {
        return getString(PARQUET_CODEC);
    }

    public int parquetPageBytes() {
        return getInt(PARQUET_PAGE_BYTES);
    }

    public BadRecordPolicy badRecordPolicy() {
        return BadRecordPolicy.parse(getString(BAD_RECORD_POLICY));
    }

    public MissingPolicy onMissing() {
        return MissingPolicy.parse(ON_MISSING, getString(ON_MISSING));
    }

    public String deadLetterTopic() {
        return getString(DEAD_LETTER_TOPIC);
    }

    public Backoff backoff() {
        return new Backoff(getLong(RETRY_BACKOFF_MS), Math.max(getLong(RETRY_BACKOFF_MS), getLong(RETRY_BACKOFF_MAX_MS)));
    }

    public int recoveryBuckets() {
        return getInt(RECOVERY_BUCKETS);
    }

    public long statusIntervalMs() {
        return getLong(STATUS_INTERVAL_MS);
    }

    public ConsoleStatus consoleStatus() {
        return ConsoleStatus.parse(getString(STATUS_CONSOLE));
    }

    public int writerThreads() {
        return getInt(WRITER_THREADS);
    }

    public List<InetSocketAddress> httpListeners() {
        return HttpListeners.parse(getString(HTTP_LISTENERS));
    }

    /**
     * kafka-clients' security settings given without a prefix ({@code security.protocol},
     * {@code ssl.*}, {@code sasl.*}): every Kafka client of the sink gets them, under its own
     * prefixed settings.
     */
    public Map<String, Object> clientSecurity() {
        Map<String, Object> security = new HashMap<>();
        originals().forEach((key, value) -> {
            if (key.equals(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG) || key.startsWith("ssl.") || key.startsWith("sasl.")) {
                security.put(key, value);
            }
        });
        return security;
    }

    /** The settings under {@code prefix}, prefix removed (for the consumer, producer and Hadoop). */
    public Map<String, Object> passThrough(String prefix) {
        return originalsWithPrefix(prefix);
    }
}
