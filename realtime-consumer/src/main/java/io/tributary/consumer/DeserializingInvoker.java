package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns raw records into typed ones and calls the record or the batch handler. Deserializing here,
 * on the worker, rather than in the poll loop means a record that cannot be deserialized goes
 * through retries and the failure policy like any other failure instead of wedging the consumer.
 */
final class DeserializingInvoker<K, V> implements HandlerInvoker {
    private final Deserializer<K> keyDeserializer;
    private final Deserializer<V> valueDeserializer;
    private final RecordHandler<K, V> recordHandler;
    private final BatchHandler<K, V> batchHandler;

    private DeserializingInvoker(Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer,
                                 RecordHandler<K, V> recordHandler, BatchHandler<K, V> batchHandler) {
        this.keyDeserializer = keyDeserializer;
        this.valueDeserializer = valueDeserializer;
        this.recordHandler = recordHandler;
        this.batchHandler = batchHandler;
    }

    static <K, V> DeserializingInvoker<K, V> forRecords(Deserializer<K> keys, Deserializer<V> values,
                                                        RecordHandler<K, V> handler) {
        return new DeserializingInvoker<>(keys, values, handler, null);
    }

    static <K, V> DeserializingInvoker<K, V> forBatches(Deserializer<K> keys, Deserializer<V> values,
                                                        BatchHandler<K, V> handler) {
        return new DeserializingInvoker<>(keys, values, null, handler);
    }

    @Override
    public boolean perRecord() {
        return recordHandler != null;
    }

    @Override
    public void invoke(List<ConsumerRecord<byte[], byte[]>> unit) throws Exception {
        if (recordHandler != null) {
            recordHandler.handle(deserialize(unit.get(0)));
            return;
        }
        List<ConsumerRecord<K, V>> typed = new ArrayList<>(unit.size());
        for (ConsumerRecord<byte[], byte[]> raw : unit) {
            typed.add(deserialize(raw));
        }
        batchHandler.handle(typed);
    }

    private ConsumerRecord<K, V> deserialize(ConsumerRecord<byte[], byte[]> raw) {
        K key = keyDeserializer.deserialize(raw.topic(), raw.headers(), raw.key());
        V value = valueDeserializer.deserialize(raw.topic(), raw.headers(), raw.value());
        return new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), raw.timestamp(),
                raw.timestampType(), raw.serializedKeySize(), raw.serializedValueSize(), key, value,
                raw.headers(), raw.leaderEpoch(), raw.deliveryCount());
    }

    @Override
    public void close() {
        keyDeserializer.close();
        valueDeserializer.close();
    }
}
