package io.tributary.examples;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A Kafka producer that counts what the broker acknowledged, so "records produced" in a summary
 * means records stored, not records handed to the client. Thread-safe.
 */
public final class CountingProducer<K, V> implements AutoCloseable {
    private final KafkaProducer<K, V> producer;
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

    public CountingProducer(String bootstrapServers, Serializer<K> keys, Serializer<V> values) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        this.producer = new KafkaProducer<>(props, keys, values);
    }

    /** Fetches the topic's metadata now, so the first send does not stall a paced stream. */
    public void warmUp(String topic) {
        producer.partitionsFor(topic);
    }

    public void send(ProducerRecord<K, V> record) {
        producer.send(record, (metadata, error) -> {
            if (error == null) {
                acknowledged.incrementAndGet();
            } else {
                firstFailure.compareAndSet(null, error);
            }
        });
    }

    /**
     * Waits until everything sent so far is acknowledged or failed.
     *
     * @throws IllegalStateException carrying the first failed send, if any failed
     */
    public void flush() {
        producer.flush();
        Exception failure = firstFailure.get();
        if (failure != null) {
            throw new IllegalStateException("a record could not be produced: " + failure.getMessage(), failure);
        }
    }

    /** Records the broker has acknowledged. */
    public long acknowledged() {
        return acknowledged.get();
    }

    @Override
    public void close() {
        producer.close();
    }
}
