package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.Path;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.UUID;

/**
 * Where everything of a dataset lives below its root (any Hadoop URI or plain path):
 * <pre>
 * &lt;root&gt;/&lt;topic&gt;/dt=YYYY-MM-DD/hr=HH/&lt;DataFileName&gt;         committed data
 * &lt;root&gt;/_tributary/ledger/&lt;topic&gt;/v&lt;20-digit n&gt;.ledger       loaded-offset ledger (newest version wins)
 * &lt;root&gt;/_tributary/tmp/&lt;topic&gt;/&lt;partition&gt;/&lt;uuid&gt;.parquet.tmp  streaming temp files
 * &lt;root&gt;/_tributary/jobs/&lt;topic&gt;/&lt;jobId&gt;/                    batch job staging
 * </pre>
 * Buckets follow the record timestamp in {@link #zone()}. Temp files sit in one directory per
 * partition so a writer that takes a partition over can delete its predecessor's leftovers
 * without scanning the tree. Immutable and thread-safe.
 */
public final class DatasetLayout {
    /** Hidden from Hadoop, Spark and Hive readers by the leading underscore. */
    public static final String META_DIR = "_tributary";
    public static final String LEDGER_SUFFIX = ".ledger";
    public static final String TEMP_SUFFIX = ".tmp";
    public static final String DATE_PREFIX = "dt=";
    public static final String HOUR_PREFIX = "hr=";

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd");
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("HH");

    private final Path root;
    private final ZoneId zone;

    public DatasetLayout(Path root, ZoneId zone) {
        this.root = Objects.requireNonNull(root, "root");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    /** A layout that buckets by UTC time, the default. */
    public static DatasetLayout utc(Path root) {
        return new DatasetLayout(root, ZoneOffset.UTC);
    }

    public Path root() {
        return root;
    }

    public ZoneId zone() {
        return zone;
    }

    public Path topicDir(String topic) {
        return new Path(root, Topics.requireLegal(topic));
    }

    /** {@code dt=YYYY-MM-DD/hr=HH} of a record timestamp (epoch millis) in this layout's zone. */
    public String bucketName(long timestampMs) {
        Instant instant = Instant.ofEpochMilli(timestampMs);
        var local = instant.atZone(zone);
        return DATE_PREFIX + DATE.format(local) + Path.SEPARATOR + HOUR_PREFIX + HOUR.format(local);
    }

    public Path bucketDir(String topic, long timestampMs) {
        return new Path(topicDir(topic), bucketName(timestampMs));
    }

    /** The final path of a data file whose records fall in the bucket of {@code timestampMs}. */
    public Path dataFile(long timestampMs, DataFileName name) {
        return new Path(bucketDir(name.topic(), timestampMs), name.fileName());
    }

    public Path metaDir() {
        return new Path(root, META_DIR);
    }

    /** The directory of the loaded-offset ledger of {@code topic} (see {@link OffsetLedger}). */
    public Path ledgerDir(String topic) {
        return new Path(new Path(metaDir(), "ledger"), Topics.requireLegal(topic));
    }

    /** The single-file ledger of earlier versions, read and migrated by {@link OffsetLedger}. */
    public Path legacyLedgerFile(String topic) {
        return new Path(metaDir(), Topics.requireLegal(topic) + LEDGER_SUFFIX);
    }

    /** The directory of the streaming temp directories of {@code topic}'s partitions. */
    public Path tempDir(String topic) {
        return new Path(new Path(metaDir(), "tmp"), Topics.requireLegal(topic));
    }

    /** The directory of streaming temp files of one partition; delete its contents on take-over. */
    public Path tempDir(String topic, int partition) {
        if (partition < 0) {
            throw new IllegalArgumentException("negative partition " + partition);
        }
        return new Path(tempDir(topic), Integer.toString(partition));
    }

    /** A fresh, unique temp file path in {@link #tempDir(String, int)}. */
    public Path newTempFile(String topic, int partition) {
        return new Path(tempDir(topic, partition), UUID.randomUUID() + DataFileName.EXTENSION + TEMP_SUFFIX);
    }

    /** The staging directories of the batch jobs loading {@code topic}. */
    public Path jobsDir(String topic) {
        return new Path(new Path(metaDir(), "jobs"), Topics.requireLegal(topic));
    }

    /** The staging directory of one batch job; deleted when the job commits or aborts. */
    public Path jobDir(String topic, String jobId) {
        return new Path(jobsDir(topic), jobId);
    }

    @Override
    public String toString() {
        return root + " (buckets in " + zone + ")";
    }
}
