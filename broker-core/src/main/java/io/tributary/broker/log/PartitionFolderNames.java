package io.tributary.broker.log;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;

/**
 * The names of a partition's folder, {@code <topic>-<partition>}, of the folder it is renamed to while
 * being deleted, {@code <topic>-<partition>.<32 hex digits>-delete}, with the topic cut short (as Kafka does)
 * where the whole would not fit a file name (255 bytes): topics created before the name rules can always be
 * deleted, and start-up recognises the leftover by its suffix alone; and of the folder of the copy a move to another
 * log dir fills, {@code <topic>-<partition>.<32 hex digits>-future} (Kafka's name too), never cut short since a
 * restart reads the partition back from it. A topic is refused at creation if its last partition's folder name would
 * not fit.
 */
public final class PartitionFolderNames {
    /** Longest file name on the file systems a log dir lives on (ext4, xfs, btrfs...). */
    static final int MAX_FILE_NAME_BYTES = 255;
    static final String DELETE_SUFFIX = "-delete";
    static final String FUTURE_SUFFIX = "-future";
    /** The hex digits of a UUID, which make a deletion or future name unique. */
    private static final int UNIQUE_ID_LENGTH = 32;

    private PartitionFolderNames() {
    }

    static String folderName(TopicPartition tp) {
        return tp.topic() + "-" + tp.partition();
    }

    /** A fresh deletion name for the folder of {@code tp}; unique, so a topic created again can be deleted again. */
    static String deletionName(TopicPartition tp) {
        String suffix = "-" + tp.partition() + "." + uniqueId() + DELETE_SUFFIX;
        int room = MAX_FILE_NAME_BYTES - suffix.length();
        String topic = tp.topic();
        while (utf8Bytes(topic) > room) {
            topic = topic.substring(0, Math.min(topic.length() - 1, room));
        }
        return topic + suffix;
    }

    /**
     * A fresh name for the folder of the copy of {@code tp} a move to another log dir fills.
     *
     * @throws InvalidTopicException if it would be longer than a file name (Kafka refuses such moves the same way)
     */
    static String futureName(TopicPartition tp) {
        checkFutureNameFits(tp);
        return folderName(tp) + "." + uniqueId() + FUTURE_SUFFIX;
    }

    /** @throws InvalidTopicException if a {@link #futureName} of {@code tp} would be longer than a file name */
    static void checkFutureNameFits(TopicPartition tp) {
        int bytes = utf8Bytes(folderName(tp)) + 1 + UNIQUE_ID_LENGTH + FUTURE_SUFFIX.length();
        if (bytes > MAX_FILE_NAME_BYTES) {
            throw new InvalidTopicException("The topic name is too long: the folder of a copy of " + tp
                    + " in another log dir would be " + bytes + " bytes, more than " + MAX_FILE_NAME_BYTES);
        }
    }

    /** The partition whose {@link #futureName} {@code folderName} is, if it is one. */
    static Optional<TopicPartition> parseFutureName(String folderName) {
        if (!folderName.endsWith(FUTURE_SUFFIX)) {
            return Optional.empty();
        }
        String withoutSuffix = folderName.substring(0, folderName.length() - FUTURE_SUFFIX.length());
        int dot = withoutSuffix.lastIndexOf('.');
        if (dot < 0 || withoutSuffix.length() - dot - 1 != UNIQUE_ID_LENGTH) {
            return Optional.empty();
        }
        return parseFolderName(withoutSuffix.substring(0, dot));
    }

    /** Parses {@code <topic>-<partition>}; topics may contain dashes, the partition is after the last one. */
    static Optional<TopicPartition> parseFolderName(String folderName) {
        int dash = folderName.lastIndexOf('-');
        if (dash <= 0 || dash == folderName.length() - 1) {
            return Optional.empty();
        }
        String partition = folderName.substring(dash + 1);
        if (!partition.chars().allMatch(Character::isDigit) || partition.length() > 9) {
            return Optional.empty();
        }
        return Optional.of(new TopicPartition(folderName.substring(0, dash), Integer.parseInt(partition)));
    }

    private static String uniqueId() {
        return UUID.randomUUID().toString().replace("-", "");
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
