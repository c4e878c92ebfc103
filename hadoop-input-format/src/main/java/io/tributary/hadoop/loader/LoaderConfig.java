package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.dataset.ValueFormat;
import io.tributary.hadoop.input.DelegationTokens;
import io.tributary.hadoop.input.InputConfig;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;

/** The job configuration keys of the dataset output (the input side is {@link InputConfig}). */
public final class LoaderConfig {
    /** Time zone of the dt=/hr= buckets; UTC by default. */
    public static final String TIMEZONE = "tributary.timezone";
    public static final String PARQUET_CODEC = "tributary.parquet.codec";
    public static final String ROW_GROUP_BYTES = "tributary.parquet.row.group.bytes";
    /** An Avro record schema (JSON text) to decode values into typed columns; raw values only when unset. */
    public static final String VALUE_SCHEMA = "tributary.value.schema";
    /** avro (binary) or json; used with {@link #VALUE_SCHEMA}. */
    public static final String VALUE_FORMAT = "tributary.value.format";

    /** Parquet files one task keeps open at once (one per partition and hour bucket); the least recently written closes first. */
    public static final String MAX_OPEN_FILES = "tributary.writer.max.open.files";

    /** How often the loader prints a progress line while its job runs (ms). */
    public static final String PROGRESS_INTERVAL_MS = "tributary.loader.progress.interval.ms";

    /**
     * How often a running job touches its staging area's {@code STAGED} token (ms), from its set-up
     * to its commit or abort, so that later loaders see it alive ({@link StagingHeartbeat}).
     */
    public static final String STAGING_HEARTBEAT_INTERVAL_MS = "tributary.staging.heartbeat.interval.ms";
    /**
     * How long a staging area without a commit begun must have gone untouched before a later loader
     * takes its job for dead and deletes it (ms). Only space and liveness depend on it, never
     * correctness: the clean-up and the job's own commit both create the {@code COMMITTING} file only
     * if absent, so a job that was merely slow refuses with nothing committed.
     */
    public static final String STAGING_ABANDONED_AFTER_MS = "tributary.staging.abandoned.after.ms";

    /**
     * Whether the job's tasks log in with a Kafka delegation token the loader creates as its user, instead of that
     * user's login, which then stays out of the job's configuration ({@link DelegationTokens}).
     */
    public static final String DELEGATION_TOKEN = "tributary.loader.delegation.token";

    public static final long DEFAULT_PROGRESS_INTERVAL_MS = 10_000;
    public static final long DEFAULT_STAGING_HEARTBEAT_INTERVAL_MS = 60_000;
    public static final long DEFAULT_STAGING_ABANDONED_AFTER_MS = 15 * 60_000;
    /** The abandon age must span this many heartbeats, so that a beat or two lost to a slow file system kills no live job. */
    static final int HEARTBEATS_PER_ABANDON_AGE = 3;
    public static final long DEFAULT_ROW_GROUP_BYTES = 64L * 1024 * 1024;
    public static final int DEFAULT_MAX_OPEN_FILES = 8;

    /** The input keys ({@link InputConfig#DEFINITION}) and the loader's own. */
    public static final ConfigDef DEFINITION = new ConfigDef(InputConfig.DEFINITION)
        .define(TIMEZONE, Type.STRING, "UTC", Importance.MEDIUM, "Time zone of the dt=/hr= buckets (--timezone)")
        .define(PARQUET_CODEC, Type.STRING, "snappy", Importance.LOW, "Parquet compression codec (--codec)")
        .define(ROW_GROUP_BYTES, Type.LONG, DEFAULT_ROW_GROUP_BYTES, ConfigDef.Range.atLeast(1), Importance.LOW,
            "Parquet row group size")
        .define(VALUE_SCHEMA, Type.STRING, null, Importance.MEDIUM,
            "An Avro record schema (JSON text; the loader's --value-schema reads it from a file) to decode values into typed columns")
        .define(VALUE_FORMAT, Type.STRING, "avro", Importance.MEDIUM, "Value encoding with a value schema: avro (binary) or json")
        .define(MAX_OPEN_FILES, Type.INT, DEFAULT_MAX_OPEN_FILES, ConfigDef.Range.atLeast(1), Importance.LOW,
            "Parquet files one task keeps open at once (one per partition and hour bucket); the least recently written closes first")
        .define(DELEGATION_TOKEN, Type.BOOLEAN, false, Importance.MEDIUM,
            "The tasks log in with a Kafka delegation token the loader creates as its user (SASL) and hands them in the "
                + "job's credentials; that user's sasl.jaas.config stays out of the job's configuration (--delegation-token)")
        .define(PROGRESS_INTERVAL_MS, Type.LONG, DEFAULT_PROGRESS_INTERVAL_MS, ConfigDef.Range.atLeast(1), Importance.LOW,
            "How often the loader prints a progress line while its job runs")
        .define(STAGING_HEARTBEAT_INTERVAL_MS, Type.LONG, DEFAULT_STAGING_HEARTBEAT_INTERVAL_MS, ConfigDef.Range.atLeast(1),
            Importance.LOW, "How often a running job touches its staging area (_tributary/jobs/<topic>/<job>/STAGED), from set-up to "
                + "commit or abort, so that later loaders see it alive")
        .define(STAGING_ABANDONED_AFTER_MS, Type.LONG, DEFAULT_STAGING_ABANDONED_AFTER_MS, ConfigDef.Range.atLeast(1), Importance.LOW,
            "A staging area with no commit begun and untouched this long belongs to a loader that died: the next loader deletes it. "
                + "At least " + HEARTBEATS_PER_ABANDON_AGE + " times " + STAGING_HEARTBEAT_INTERVAL_MS + "; a shorter one frees space "
                + "sooner, and a live job it misjudges refuses to commit (nothing lost, run it again)");

    private final Configuration conf;

    public LoaderConfig(Configuration conf) {
        this.conf = conf;
    }

    public DatasetLayout layout() {
        String dataset = conf.getTrimmed(InputConfig.DATASET);
        if (dataset == null || dataset.isEmpty()) {
            throw new IllegalArgumentException("missing job setting " + InputConfig.DATASET + " (the output dataset)");
        }
        String zone = conf.get(TIMEZONE, "UTC");
        try {
            return new DatasetLayout(new Path(dataset), ZoneId.of(zone));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("bad " + TIMEZONE + " '" + zone + "': " + e.getMessage(), e);
        }
    }

    public String topic() {
        return new InputConfig(conf).topic();
    }

    public ParquetWriterFactory writerFactory() {
        return new ParquetWriterFactory(conf, ParquetWriterFactory.codec(conf.get(PARQUET_CODEC, "snappy")),
            conf.getLong(ROW_GROUP_BYTES, DEFAULT_ROW_GROUP_BYTES));
    }

    public boolean delegationToken() {
        return conf.getBoolean(DELEGATION_TOKEN, false);
    }

    public long progressIntervalMs() {
        return conf.getLong(PROGRESS_INTERVAL_MS, DEFAULT_PROGRESS_INTERVAL_MS);
    }

    public Duration stagingHeartbeatInterval() {
        return Duration.ofMillis(conf.getLong(STAGING_HEARTBEAT_INTERVAL_MS, DEFAULT_STAGING_HEARTBEAT_INTERVAL_MS));
    }

    /**
     * The age after which a staging area with no commit begun counts as abandoned.
     *
     * @throws IllegalArgumentException if it spans fewer than {@value #HEARTBEATS_PER_ABANDON_AGE} heartbeats
     */
    public Duration stagingAbandonedAfter() {
        Duration age = Duration.ofMillis(conf.getLong(STAGING_ABANDONED_AFTER_MS, DEFAULT_STAGING_ABANDONED_AFTER_MS));
        Duration heartbeat = stagingHeartbeatInterval();
        if (age.compareTo(heartbeat.multipliedBy(HEARTBEATS_PER_ABANDON_AGE)) < 0) {
            throw new IllegalArgumentException(STAGING_ABANDONED_AFTER_MS + "=" + age.toMillis() + " must be at least "
                + HEARTBEATS_PER_ABANDON_AGE + " times " + STAGING_HEARTBEAT_INTERVAL_MS + "=" + heartbeat.toMillis()
                + ", or live jobs would look abandoned between two heartbeats");
        }
        return age;
    }

    public int maxOpenFiles() {
        return conf.getInt(MAX_OPEN_FILES, DEFAULT_MAX_OPEN_FILES);
    }

    /**
     * A new converter (they are single-threaded) for the configured value decoding. It refills one
     * row: the loader shreds or writes each row before it converts the next.
     */
    public RecordConverter converter() {
        String schema = conf.get(VALUE_SCHEMA);
        RecordConverter fresh = schema == null || schema.isBlank() ? RecordConverter.raw()
            : RecordConverter.decoding(new Schema.Parser().parse(schema), ValueFormat.parse(conf.get(VALUE_FORMAT, "avro")));
        return fresh.reusingRows();
    }
}
