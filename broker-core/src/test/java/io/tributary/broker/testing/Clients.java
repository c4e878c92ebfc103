package io.tributary.broker.testing;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** kafka-clients producers, consumers and admins for tests: byte arrays, quick timeouts. */
public final class Clients {
    private Clients() {
    }

    /** The default producer (idempotent, acks=all) plus {@code overrides}. */
    public static KafkaProducer<byte[], byte[]> producer(String bootstrap, Map<String, Object> overrides) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        props.putAll(overrides);
        return new KafkaProducer<>(props);
    }

    public static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return producer(bootstrap, Map.of());
    }

    /** A consumer without a group, for assign/seek. */
    public static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, Map<String, Object> overrides) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        props.putAll(overrides);
        return new KafkaConsumer<>(props);
    }

    public static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        return consumer(bootstrap, Map.of());
    }

    public static Admin admin(String bootstrap) {
        return admin(bootstrap, Map.of());
    }

    public static Admin admin(String bootstrap, Map<String, Object> overrides) {
        Map<String, Object> props = new java.util.HashMap<>(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000));
        props.putAll(overrides);
        return Admin.create(props);
    }
}
