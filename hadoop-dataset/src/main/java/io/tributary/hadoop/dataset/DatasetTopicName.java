package io.tributary.hadoop.dataset;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Which topics can be written to a dataset. The topic names the dataset's folder and every data
 * file ({@code <topic>+<partition>+<start>+<end>.parquet}), so the longest file name must fit
 * the 255 bytes a path component may have on HDFS and local filesystems, and the folder must not
 * start with {@code _} or {@code .}: Hive, Spark and MapReduce skip such paths as hidden, and
 * {@value DatasetLayout#META_DIR} is the dataset's own metadata. Such topics are refused, not
 * renamed: a mapped folder name would be one more thing every reader has to know.
 */
public final class DatasetTopicName {
    /** Path component limit of HDFS ({@code dfs.namenode.fs-limits.max-component-length}) and of ext4/xfs. */
    static final int MAX_COMPONENT_BYTES = 255;
    /** The longest topic whose longest data file name fits: partition and offsets at their widest. */
    public static final int MAX_BYTES = MAX_COMPONENT_BYTES
        - ("+" + Integer.MAX_VALUE + "+" + Long.MAX_VALUE + "+" + Long.MAX_VALUE + DataFileName.EXTENSION).length();

    private DatasetTopicName() {
    }

    /** Why {@code topic} cannot be written to a dataset, with what to do; empty if it can. */
    public static Optional<String> problem(String topic) {
        int bytes = topic.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            return Optional.of("topic '" + topic + "' is " + bytes + " bytes long; its data file names would pass the "
                + MAX_COMPONENT_BYTES + "-byte limit of a path component. Copy it to a topic of at most " + MAX_BYTES
                + " bytes (MirrorMaker, or a consumer that produces) and load that one");
        }
        if (topic.startsWith("_") || topic.startsWith(".")) {
            return Optional.of("topic '" + topic + "' starts with '" + topic.charAt(0) + "': Hive, Spark and MapReduce skip "
                + "folders named so as hidden" + (topic.equals(DatasetLayout.META_DIR) ? ", and " + DatasetLayout.META_DIR
                + " is the dataset's own metadata folder" : "") + ". Copy it to a topic whose name starts with a letter "
                + "or digit (MirrorMaker, or a consumer that produces) and load that one");
        }
        return Optional.empty();
    }
}
