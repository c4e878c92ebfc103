package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.TopicPartition;

/**
 * The records of {@code __consumer_offsets}. Key: version (int16, 1), group, topic (int16-length
 * UTF-8 strings), partition (int32). Value: version (int16, 0), offset (int64), leader epoch
 * (int32), metadata (int16 length, -1 for null, then UTF-8), commit timestamp (int64). A null
 * value (tombstone) deletes the key, so compaction keeps exactly the live commits.
 */
final class OffsetRecords {
    private static final short KEY_VERSION = 1;
    private static final short VALUE_VERSION = 0;

    /** The key of a record: one group's position in one partition. */
    record Key(String groupId, TopicPartition partition) {
    }

    private OffsetRecords() {
    }

    static ByteBuffer key(String groupId, TopicPartition partition) {
        byte[] group = utf8(groupId);
        byte[] topic = utf8(partition.topic());
        ByteBuffer buffer = ByteBuffer.allocate(2 + 2 + group.length + 2 + topic.length + 4);
        buffer.putShort(KEY_VERSION);
        putString(buffer, group);
        putString(buffer, topic);
        buffer.putInt(partition.partition());
        return buffer.flip();
    }

    static ByteBuffer value(CommittedOffset offset) {
        byte[] metadata = offset.metadata() == null ? null : utf8(offset.metadata());
        ByteBuffer buffer = ByteBuffer.allocate(2 + 8 + 4 + 2 + (metadata == null ? 0 : metadata.length) + 8);
        buffer.putShort(VALUE_VERSION);
        buffer.putLong(offset.offset());
        buffer.putInt(offset.leaderEpoch());
        if (metadata == null) {
            buffer.putShort((short) -1);
        } else {
            putString(buffer, metadata);
        }
        buffer.putLong(offset.commitTimestampMs());
        return buffer.flip();
    }

    /** @throws IllegalArgumentException if the key is not one this broker writes */
    static Key readKey(ByteBuffer buffer) {
        short version = buffer.getShort();
        if (version != KEY_VERSION) {
            throw new IllegalArgumentException("unknown __consumer_offsets key version " + version);
        }
        String group = readString(buffer);
        String topic = readString(buffer);
        return new Key(group, new TopicPartition(topic, buffer.getInt()));
    }

    /** @throws IllegalArgumentException if the value is not one this broker writes */
    static CommittedOffset readValue(ByteBuffer buffer) {
        short version = buffer.getShort();
        if (version != VALUE_VERSION) {
            throw new IllegalArgumentException("unknown __consumer_offsets value version " + version);
        }
        long offset = buffer.getLong();
        int leaderEpoch = buffer.getInt();
        String metadata = readString(buffer);
        return new CommittedOffset(offset, leaderEpoch, metadata, buffer.getLong());
    }

    private static byte[] utf8(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > Short.MAX_VALUE) {
            throw new IllegalArgumentException("string of " + bytes.length + " bytes is too long for an offset record");
        }
        return bytes;
    }

    private static void putString(ByteBuffer buffer, byte[] bytes) {
        buffer.putShort((short) bytes.length);
        buffer.put(bytes);
    }

    private static String readString(ByteBuffer buffer) {
        short length = buffer.getShort();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
