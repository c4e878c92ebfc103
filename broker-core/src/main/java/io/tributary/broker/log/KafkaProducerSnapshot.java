package io.tributary.broker.log;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Apache Kafka's producer snapshot ({@code <offset>.snapshot}, its storage module's {@code ProducerSnapshot} schema),
 * which remote segment copies carry so that Kafka's tools and followers read them: int16 version 1, an unsigned
 * int32 CRC-32C of every byte after it, then an int32 count and per producer (int64 producer id, int16 epoch, int32
 * last sequence, int64 last offset, int32 offset delta, int64 timestamp, int32 coordinator epoch, int64 first offset
 * of its open transaction). No main-scope dependency of ours has Kafka's class for it.
 */
final class KafkaProducerSnapshot {
    private static final short VERSION = 1;
    private static final int CRC_OFFSET = 2;
    private static final int ENTRIES_OFFSET = 6;
    private static final int ENTRY_BYTES = 8 + 2 + 4 + 8 + 4 + 8 + 4 + 8;

    private KafkaProducerSnapshot() {
    }

    /**
     * One producer: its last batch (sequences {@code lastSequence - offsetDelta} to {@code lastSequence} at offsets
     * {@code lastOffset - offsetDelta} to {@code lastOffset}; -1 and 0 if it wrote only markers), when it last wrote,
     * the coordinator epoch of its last marker (-1: none) and its open transaction's first offset (-1: none).
     */
    record Entry(long producerId, short epoch, int lastSequence, long lastOffset, int offsetDelta, long timestamp,
                        int coordinatorEpoch, long currentTxnFirstOffset) {
    }

    /** Whether {@code bytes} start as a snapshot in this format (our own formats start with "TPS"). */
    static boolean isKafkaFormat(byte[] bytes) {
        return bytes.length >= ENTRIES_OFFSET && ByteBuffer.wrap(bytes).getShort() == VERSION;
    }

    static byte[] encode(List<Entry> entries) {
        ByteBuffer buffer = ByteBuffer.allocate(ENTRIES_OFFSET + 4 + entries.size() * ENTRY_BYTES);
        buffer.putShort(VERSION).putInt(0).putInt(entries.size());
        for (Entry e : entries) {
            buffer.putLong(e.producerId()).putShort(e.epoch()).putInt(e.lastSequence()).putLong(e.lastOffset())
                    .putInt(e.offsetDelta()).putLong(e.timestamp()).putInt(e.coordinatorEpoch())
                    .putLong(e.currentTxnFirstOffset());
        }
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), ENTRIES_OFFSET, buffer.capacity() - ENTRIES_OFFSET);
        buffer.putInt(CRC_OFFSET, (int) crc.getValue());
        return buffer.array();
    }

    /**
     * @throws IllegalStateException if {@code bytes} are not a whole snapshot of version 1 with a matching checksum
     */
    static List<Entry> decode(byte[] bytes) {
        if (!isKafkaFormat(bytes) || bytes.length < ENTRIES_OFFSET + 4) {
            throw new IllegalStateException("not a producer snapshot of version " + VERSION);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes, ENTRIES_OFFSET, bytes.length - ENTRIES_OFFSET);
        if (buffer.getInt(CRC_OFFSET) != (int) crc.getValue()) {
            throw new IllegalStateException("producer snapshot checksum mismatch");
        }
        buffer.position(ENTRIES_OFFSET);
        int count = buffer.getInt();
        if (count < 0 || buffer.remaining() != (long) count * ENTRY_BYTES) {
            throw new IllegalStateException("producer snapshot of " + bytes.length + " bytes cannot hold " + count + " producers");
        }
        List<Entry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(new Entry(buffer.getLong(), buffer.getShort(), buffer.getInt(), buffer.getLong(), buffer.getInt(),
                    buffer.getLong(), buffer.getInt(), buffer.getLong()));
        }
        return entries;
    }
}
