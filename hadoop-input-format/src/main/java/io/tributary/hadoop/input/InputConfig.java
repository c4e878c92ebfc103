package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.MissingPolicy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The job configuration keys of {@link TopicInputFormat}, and the typed reading of them. Any
 * {@code tributary.consumer.<key>} is passed to the Kafka consumers as {@code <key>} (security
 * settings, fetch sizes). The consumers and the planner read {@code read_committed} unless
 * {@code tributary.consumer.isolation.level} says otherwise: aborted records and those of a
 * transaction still open are never loaded, and planning ends at the last stable offset.
 */
public final class InputConfig {
    public static final String BOOTSTRAP_SERVERS = "tributary.bootstrap.servers";
    public static final String TOPIC = "tributary.topic";
    /** ledger (default), earliest, latest, group:&lt;id&gt;, timestamp:&lt;ms or ISO-8601&gt;, offsets:&lt;p&gt;=&lt;o&gt;,... */
    public static final String START = "tributary.start";
    /** The dataset root, needed by the ledger start position (and the loader's output). */
    public static final String DATASET = "tributary.dataset";
    public static final String SPLIT_MAX_RECORDS = "tributary.split.max.records";
    /** 0 (the default) turns the byte limit off; otherwise record sizes are sampled at planning. */
    public static final String SPLIT_MAX_BYTES = "tributary.split.max.bytes";
    /**
     * Tiny ranges, under this many offsets, are packed together into splits of up to this many
     * offsets ({@value #DEFAULT_SPLIT_PACK_RECORDS}; 0 never packs). Larger ranges get splits of their own.
     */
    public static final String SPLIT_PACK_RECORDS = "tributary.split.pack.records";
    /** At least this many splits (maps), halving the largest; 0 (the default) sets no minimum. */
    public static final String SPLIT_MIN_MAPS = "tributary.split.min.maps";
    /** At most this many splits (maps), dealing ranges out onto that many; 0 (the default) sets no maximum. */
    public static final String SPLIT_MAX_MAPS = "tributary.split.max.maps";
    public static final String ON_MISSING = "tributary.on.missing";
    /** How long a reader may see no progress before it fails. */
    public static final String STALL_TIMEOUT_MS = "tributary.read.stall.timeout.ms";
    /** Set by planning: the fixed ranges of this job (see {@link LoadPlan#encode()}). */
    public static final String PLAN = "tributary.plan";
    /** The brokers' remote.log.storage.hdfs.uri: ranges in tiered segments are read from there, not through the brokers. */
    public static final String TIERED_STORAGE = "tributary.tiered.storage";
    /** How many of the newest hour buckets the ledger start cross-checks. */
    public static final String RESUME_CHECK_BUCKETS = "tributary.resume.check.buckets";
    public static final String CONSUMER_PREFIX = "tributary.consumer.";
    /** The SASL mechanism the tasks log in with when their job carries a delegation token ({@link DelegationTokens}). */
    public static final String DELEGATION_TOKEN_MECHANISM = "tributary.delegation.token.mechanism";
    public static final String DEFAULT_DELEGATION_TOKEN_MECHANISM = "SCRAM-SHA-512";
    /** Committed records only, unless {@code tributary.consumer.isolation.level=read_uncommitted}. */
    public static final String DEFAULT_ISOLATION_LEVEL = "read_committed";
    /**
     * Whether to keep a records counter per partition (default true). Hadoop caps a job's counters
     * ({@code mapreduce.job.counters.max}, 120), so topics with many partitions must turn it off.
     */
    public static final String PARTITION_COUNTERS = "tributary.counters.per.partition";

    /**
     * Whether a record reader fetches ahead on a thread of its own (default true), so kafka-clients
     * polls and decodes while the map thread converts and writes; false reads on the map thread.
     */
    public static final String READER_PREFETCH = "tributary.reader.prefetch";

    /**
     * A {@link RecordPreparer.Factory} class: the record readers run its preparer on every record
     * (on the fetch thread when prefetching). Unset: nothing is prepared.
     */
    public static final String RECORD_PREPARER = "tributary.reader.preparer";

    public static final long DEFAULT_SPLIT_MAX_RECORDS = 1_000_000;
    /** A range this small reads in well under a second, far less than a task's start costs. */
    public static final long DEFAULT_SPLIT_PACK_RECORDS = 10_000;
    public static final long DEFAULT_STALL_TIMEOUT_MS = 120_000;
    public static final int DEFAULT_RESUME_CHECK_BUCKETS = 48;

    /**
     * Every key above but {@link #CONSUMER_PREFIX}, with its type, default and meaning: checked
     * before a load and rendered into the configuration reference of docs/operations.md.
     */
    public static final ConfigDef DEFINITION = new ConfigDef()
        .define(BOOTSTRAP_SERVERS, Type.LIST, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH, "Brokers to read from")
        .define(TOPIC, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH, "The topic to read")
        .define(START, Type.STRING, "ledger", Importance.HIGH, "Where reading starts: ledger (where the dataset ends; needs "
            + DATASET + "), earliest, latest, group:<id>, timestamp:<ms or ISO-8601>, offsets:<p>=<o>,...")
        .define(DATASET, Type.STRING, null, Importance.HIGH, "The dataset root (the loader's --output)")
        .define(ON_MISSING, Type.STRING, "fail", Importance.MEDIUM,
            "Records lost to retention before they were read: fail naming the range, or skip them and count them")
        .define(SPLIT_MAX_RECORDS, Type.LONG, DEFAULT_SPLIT_MAX_RECORDS, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
            "Most offsets in one split (map task)")
        .define(SPLIT_MAX_BYTES, Type.LONG, 0L, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
            "Most estimated bytes in one split, from record sizes sampled at planning; 0 turns the limit off")
        .define(SPLIT_PACK_RECORDS, Type.LONG, DEFAULT_SPLIT_PACK_RECORDS, ConfigDef.Range.atLeast(0), Importance.LOW,
            "Ranges under this many offsets are packed together into splits of up to this many; 0 never packs")
        .define(SPLIT_MIN_MAPS, Type.INT, 0, ConfigDef.Range.atLeast(0), Importance.LOW,
            "At least this many splits, halving the largest; 0 sets no minimum")
        .define(SPLIT_MAX_MAPS, Type.INT, 0, ConfigDef.Range.atLeast(0), Importance.LOW,
            "At most this many splits, dealing the ranges out onto that many; 0 sets no maximum")
        .define(STALL_TIMEOUT_MS, Type.LONG, DEFAULT_STALL_TIMEOUT_MS, ConfigDef.Range.atLeast(1), Importance.LOW,
            "A reader that makes no progress this long fails")
        .define(READER_PREFETCH, Type.BOOLEAN, true, Importance.LOW,
            "Read Kafka on a fetch thread per map, ahead of the map thread")
        .define(PARTITION_COUNTERS, Type.BOOLEAN, true, Importance.LOW,
            "A records counter per partition (the loader turns it off above 50 partitions: Hadoop caps a job's counters)")
        .define(RESUME_CHECK_BUCKETS, Type.INT, DEFAULT_RESUME_CHECK_BUCKETS, ConfigDef.Range.atLeast(1), Importance.LOW,
            "Newest hour buckets the ledger start cross-checks against the file names")
        .define(RECORD_PREPARER, Type.STRING, null, Importance.LOW,
            "A RecordPreparer.Factory class run on every record on the fetch thread (the loader's row builder)")
        .define(TIERED_STORAGE, Type.STRING, null, Importance.MEDIUM,
            "The brokers' tiered storage (their remote.log.storage.hdfs.uri): the offsets in tiered segments are read "
                + "straight from there, near their blocks, and only the rest through the brokers; with the brokers "
                + "unreachable, what is tiered is loaded all the same")
        .define(DELEGATION_TOKEN_MECHANISM, Type.STRING, DEFAULT_DELEGATION_TOKEN_MECHANISM, Importance.LOW,
            "The SCRAM mechanism the tasks log in with when the job carries a Kafka delegation token (the loader's "
                + "--delegation-token)")
        .define(PLAN, Type.STRING, null, Importance.LOW, "Set by planning: the job's fixed ranges; do not set it yourself");

    private final Configuration conf;

    public InputConfig(Configuration conf) {
        this.conf = conf;
    }

    public String bootstrapServers() {
        return required(BOOTSTRAP_SERVERS);
    }

    public String topic() {
        return required(TOPIC);
    }

    public StartPosition start() {
        return StartPosition.parse(conf.get(START, "ledger"));
    }

    public SplitLimits splitLimits() {
        return new SplitLimits(conf.getLong(SPLIT_MAX_RECORDS, DEFAULT_SPLIT_MAX_RECORDS), conf.getLong(SPLIT_MAX_BYTES, 0),
            conf.getLong(SPLIT_PACK_RECORDS, DEFAULT_SPLIT_PACK_RECORDS), conf.getInt(SPLIT_MIN_MAPS, 0), conf.getInt(SPLIT_MAX_MAPS, 0));
    }

    public MissingPolicy onMissing() {
        return MissingPolicy.parse(ON_MISSING, conf.get(ON_MISSING, "fail"));
    }

    public Duration stallTimeout() {
        return Duration.ofMillis(conf.getLong(STALL_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS));
    }

    public boolean partitionCounters() {
        return conf.getBoolean(PARTITION_COUNTERS, true);
    }

    public boolean readerPrefetch() {
        return conf.getBoolean(READER_PREFETCH, true);
    }

    /** A new preparer from the configured {@link #RECORD_PREPARER} factory, or {@link RecordPreparer#NONE}. */
    public RecordPreparer recordPreparer() {
        Class<? extends RecordPreparer.Factory> factory;
        try {
            factory = conf.getClass(RECORD_PREPARER, null, RecordPreparer.Factory.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad " + RECORD_PREPARER + " '" + conf.get(RECORD_PREPARER) + "': " + e.getMessage(), e);
        }
        return factory == null ? RecordPreparer.NONE : ReflectionUtils.newInstance(factory, conf).create(conf);
    }

    /** The tiered storage to read from, if any ({@link #TIERED_STORAGE}). */
    public Optional<String> tieredStorage() {
        return Optional.ofNullable(conf.getTrimmed(TIERED_STORAGE)).filter(uri -> !uri.isEmpty());
    }

    public int resumeCheckBuckets() {
        return conf.getInt(RESUME_CHECK_BUCKETS, DEFAULT_RESUME_CHECK_BUCKETS);
    }

    /** Consumer settings for reading ranges: assigned partitions, no group, no offset reset. */
    public Map<String, Object> consumerProps(String clientId) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        // A reader has one partition assigned at a time: let one fetch bring more than the 1 MiB default.
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        // The 64 KiB default socket buffer turns each 8 MiB fetch into many small reads.
        props.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 1024 * 1024);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, DEFAULT_ISOLATION_LEVEL);
        props.putAll(conf.getPropsWithPrefix(CONSUMER_PREFIX));
        DelegationTokens.tokenLogin(conf, conf.getTrimmed(DELEGATION_TOKEN_MECHANISM, DEFAULT_DELEGATION_TOKEN_MECHANISM))
            .ifPresent(props::putAll);
        return props;
    }

    /** The settings of {@code consumerProps} an admin client takes. */
    static Map<String, Object> adminProps(Map<String, Object> consumerProps) {
        Map<String, Object> props = new HashMap<>();
        consumerProps.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                props.put(k, v);
            }
        });
        return props;
    }

    /**
     * What the readers read and where planning ends: {@code read_committed} (the default) up to
     * the last stable offset, {@code read_uncommitted} up to the high watermark.
     */
    public IsolationLevel isolationLevel() {
        String key = CONSUMER_PREFIX + ConsumerConfig.ISOLATION_LEVEL_CONFIG;
        String value = conf.getTrimmed(key, DEFAULT_ISOLATION_LEVEL);
        for (IsolationLevel level : IsolationLevel.values()) {
            if (level.toString().equals(value.toLowerCase(Locale.ROOT))) {
                return level;
            }
        }
        throw new IllegalArgumentException("bad " + key + " '" + value + "': read_committed or read_uncommitted");
    }

    /**
     * Checks every declared key {@code conf} sets against {@code definition}.
     *
     * @throws ConfigException naming the key and its value
     */
    public static void validate(ConfigDef definition, Configuration conf) {
        Map<String, String> declared = new HashMap<>();
        for (String name : definition.names()) {
            String value = conf.get(name);
            if (value != null) {
                declared.put(name, value);
            }
        }
        definition.parse(declared);
    }

    private String required(String key) {
        String value = conf.getTrimmed(key);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("missing job setting " + key);
        }
        return value;
    }
}
