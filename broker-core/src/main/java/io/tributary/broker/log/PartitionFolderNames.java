package io.tributary.broker.log;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;

/**
 * The names of a partition's folder, {@code <topic>-<partition>}, and of the folder it is renamed to while
 * being deleted, {@code <topic>-<partition>.<32 hex digits>-delete}, with the topic cut short (as Kafka does)
 * where the whole would not fit a file name (255 bytes): topics created before the name rules can always be
 * deleted, and start-up recognises the leftover by its suffix alone. A topic is refused at creation if its last
 * partition's folder name would not fit.
 */
public final class PartitionFolderNames {
    /** Longest file name on the file systems a log dir lives on (ext4, xfs, btrfs...). */
    static final int MAX_FILE_NAME_BYTES = 255;
    static final String DELETE_SUFFIX = "-delete";

    private PartitionFolderNames() {
    }

    static String folderName(TopicPartition tp) {
        return tp.topic() + "-" + tp.partition();
    }

    /** A fresh deletion name for the folder of {@code tp}; unique, so a topic created again can be deleted again. */
    static String deletionName(TopicPartition tp) {
        String suffix = "-" + tp.partition() + "." + UUID.randomUUID().toString().replace("-", "") + DELETE_SUFFIX;
        int room = MAX_FILE_NAME_BYTES - suffix.length();
        String topic = tp.topic();
        while (utf8Bytes(topic) > room) {
            topic = topic.substring(0, Math.min(topic.length() - 1, room));
        }
        return topic + suffix;
    }

    private static int utf8Bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * @throws InvalidTopicException if a partition folder of {@code topic}, with partitions numbered below
     *                               {@code partitionCount}, would be longer than a file name
     */
    public static void checkFit(String topic, int partitionCount) {
        String longestFolder = folderName(new TopicPartition(topic, Math.max(0, partitionCount - 1)));
        int folderBytes = utf8Bytes(longestFolder);
        if (folderBytes > MAX_FILE_NAME_BYTES) {
            throw new InvalidTopicException("Topic name '" + topic + "' is too long for " + partitionCount
                    + " partition(s): the folder of its partition " + (partitionCount - 1) + " would be "
                    + folderBytes + " bytes, more than " + MAX_FILE_NAME_BYTES);
        }
    }
}
