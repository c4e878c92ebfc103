package io.tributary.broker.log;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;

/**
 * The names of a partition's folder, {@code <topic>-<partition>}, and of the folder it is renamed to while
 * being deleted, {@code <topic>-<partition>.<32 hex digits>-delete}. Both must fit a file name (255 bytes), so
 * a topic is refused at creation if its last partition's deletion name would not.
 */
public final class PartitionFolderNames {
    /** Longest file name on the file systems a log dir lives on (ext4, xfs, btrfs...). */
    static final int MAX_FILE_NAME_BYTES = 255;
    static final String DELETE_SUFFIX = "-delete";
    private static final int DELETION_ID_CHARS = 32;

    private PartitionFolderNames() {
    }

    static String folderName(TopicPartition tp) {
        return tp.topic() + "-" + tp.partition();
    }

    /** A fresh deletion name for the folder {@code folderName}; unique, so a topic created again can be deleted again. */
    static String deletionName(String folderName) {
        return folderName + "." + UUID.randomUUID().toString().replace("-", "") + DELETE_SUFFIX;
    }

    /**
     * @throws InvalidTopicException if a partition folder of {@code topic}, with partitions numbered below
     *                               {@code partitionCount}, or its deletion name would be longer than a file name
     */
    public static void checkFit(String topic, int partitionCount) {
        String longestFolder = folderName(new TopicPartition(topic, Math.max(0, partitionCount - 1)));
        int deletionBytes = longestFolder.getBytes(StandardCharsets.UTF_8).length + 1 + DELETION_ID_CHARS + DELETE_SUFFIX.length();
        if (deletionBytes > MAX_FILE_NAME_BYTES) {
            throw new InvalidTopicException("Topic name '" + topic + "' is too long for " + partitionCount
                    + " partition(s): the folder of its partition " + (partitionCount - 1) + " could not be renamed for deletion ("
                    + deletionBytes + " bytes, more than " + MAX_FILE_NAME_BYTES + ")");
        }
    }
}
