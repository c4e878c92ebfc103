package io.tributary.broker.txn;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * What {@code __transaction_state} holds for one transactional id: the value of its latest record. Keys and values
 * use Kafka's version 0 layouts, so Kafka's tools decode our records: key = short version 0, string transactional
 * id; value = short version 0, long producer id, short producer epoch, int transaction timeout, byte state, array of
 * (string topic, array of int partition), long last update time, long start time (strings as a short length and
 * UTF-8, arrays as an int count). A null value (tombstone) removes the id.
 */
public record TransactionRecord(String transactionalId, long producerId, short producerEpoch, int timeoutMs,
                                TransactionState state, Set<TopicPartition> partitions, long lastUpdateMs,
                                long startMs) {
    private static final short VERSION = 0;

    public TransactionRecord {
        partitions = Set.copyOf(partitions);
    }

    byte[] key() {
        return key(transactionalId);
    }

    static byte[] key(String transactionalId) {
        byte[] id = transactionalId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + 2 + id.length).putShort(VERSION).putShort((short) id.length).put(id).array();
    }

    static String readKey(ByteBuffer key) {
        short version = key.getShort();
        if (version != VERSION) {
            throw new IllegalArgumentException("unknown transaction log key version " + version);
        }
        return readString(key);
    }

    byte[] value() {
        Map<String, Set<Integer>> byTopic = new TreeMap<>();
        partitions.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new TreeSet<>()).add(tp.partition()));
        int size = 2 + 8 + 2 + 4 + 1 + 4 + 8 + 8;
        for (Map.Entry<String, Set<Integer>> topic : byTopic.entrySet()) {
            size += 2 + topic.getKey().getBytes(StandardCharsets.UTF_8).length + 4 + 4 * topic.getValue().size();
        }
        ByteBuffer buffer = ByteBuffer.allocate(size).putShort(VERSION).putLong(producerId).putShort(producerEpoch)
                .putInt(timeoutMs).put(state.id()).putInt(byTopic.size());
        byTopic.forEach((topic, ids) -> {
            byte[] name = topic.getBytes(StandardCharsets.UTF_8);
            buffer.putShort((short) name.length).put(name).putInt(ids.size());
            ids.forEach(buffer::putInt);
        });
        return buffer.putLong(lastUpdateMs).putLong(startMs).array();
    }

    static TransactionRecord read(String transactionalId, ByteBuffer value) {
        short version = value.getShort();
        if (version != VERSION) {
            throw new IllegalArgumentException("unknown transaction log value version " + version);
        }
        long producerId = value.getLong();
        short epoch = value.getShort();
        int timeoutMs = value.getInt();
        TransactionState state = TransactionState.fromId(value.get());
        int topics = value.getInt();
        Set<TopicPartition> partitions = new HashSet<>();
        for (int t = 0; t < Math.max(topics, 0); t++) {
            String topic = readString(value);
            int count = value.getInt();
            for (int p = 0; p < count; p++) {
                partitions.add(new TopicPartition(topic, value.getInt()));
            }
        }
        return new TransactionRecord(transactionalId, producerId, epoch, timeoutMs, state, partitions, value.getLong(),
                value.getLong());
    }

    private static String readString(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.getShort()];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
