package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.HashMap;
import java.util.Map;

/**
 * The kafka-clients settings of every workload, the same for both brokers: what differs between
 * the sides of a run is the bootstrap address (and a TLS listener's truststore) and nothing else. Anything not set here is the
 * kafka-clients 4.4 default (no compression, idempotence with acks=all, 5 requests in flight).
 */
public final class ClientSettings {
    static final int LINGER_MS = 5;
    static final int BATCH_SIZE = 64 * 1024;
    static final int GROUP_HEARTBEAT_MS = 100;

    private ClientSettings() {
    }

    public static Map<String, Object> producer(Broker broker, String acks) {
        Map<String, Object> config = connection(broker);
        config.put(ProducerConfig.ACKS_CONFIG, acks);
        config.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_SIZE);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return config;
    }

    /** A group-less consumer: the harness assigns partitions itself and commits nothing. */
    public static Map<String, Object> consumer(Broker broker) {
        Map<String, Object> config = connection(broker);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return config;
    }

    /**
     * A member of a consumer group (the classic protocol: JoinGroup, SyncGroup, Heartbeat) that
     * starts at the beginning of a new group's partitions and commits only when told to.
     * Heartbeats every {@value #GROUP_HEARTBEAT_MS} ms instead of 3 s, so that a member learns of
     * a rebalance in a fraction of a phase rather than seconds after it.
     */
    public static Map<String, Object> groupConsumer(Broker broker, String groupId) {
        Map<String, Object> config = consumer(broker);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, GROUP_HEARTBEAT_MS);
        return config;
    }

    /** Where {@code broker} is and, on a TLS listener, how to trust it: the only settings in which the sides differ. */
    private static Map<String, Object> connection(Broker broker) {
        Map<String, Object> config = new HashMap<>(broker.clientSecurity());
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return config;
    }

    /** For the documentation: the settings that are not connection details. */
    public static String describe() {
        return "linger.ms=" + LINGER_MS + ", batch.size=" + BATCH_SIZE
                + ", compression none; group members: classic protocol, heartbeat.interval.ms=" + GROUP_HEARTBEAT_MS
                + ", auto.offset.reset=earliest, no auto-commit; other producer and consumer settings at their "
                + "kafka-clients 4.4 defaults";
    }
}
