package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.HashMap;
import java.util.Map;

/**
 * The kafka-clients settings of every workload, the same for both brokers: what differs between
 * the sides of a run is the bootstrap address and nothing else. Anything not set here is the
 * kafka-clients 4.4 default (no compression, idempotence with acks=all, 5 requests in flight).
 */
public final class ClientSettings {
    static final int LINGER_MS = 5;
    static final int BATCH_SIZE = 64 * 1024;

    private ClientSettings() {
    }

    public static Map<String, Object> producer(String bootstrap, String acks) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, acks);
        config.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_SIZE);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return config;
    }

    /** A group-less consumer: the harness assigns partitions itself and commits nothing. */
    public static Map<String, Object> consumer(String bootstrap) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return config;
    }

    /** For the documentation: the settings that are not connection details. */
    public static String describe() {
        return "linger.ms=" + LINGER_MS + ", batch.size=" + BATCH_SIZE
                + ", compression none, other producer and consumer settings at their kafka-clients 4.4 defaults";
    }
}
