package io.tributary.consumer.cli;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * Creates the Kafka clients of one command with the CLI's defaults: timeouts short enough that an
 * unreachable broker is reported within seconds rather than after a minute. The settings of
 * {@code --command-config} (security, timeouts) override those defaults but not the command's own
 * flags; the context's overrides come last.
 */
final class KafkaClients {
    private static final int API_TIMEOUT_MS = 15_000;
    private static final int REQUEST_TIMEOUT_MS = 10_000;

    private final String bootstrapServer;
    private final Map<String, Object> commandConfig;
    private final Map<String, Object> overrides;

    KafkaClients(ConnectionOptions connection, CliContext context) {
        this.bootstrapServer = connection.bootstrapServer();
        this.commandConfig = connection.commandConfig();
        this.overrides = context.clientOverrides();
    }

    Admin admin() {
        Map<String, Object> defaults = new HashMap<>();
        defaults.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, API_TIMEOUT_MS);
        defaults.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
        return Admin.create(configure(defaults, Map.of(), AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    KafkaProducer<byte[], byte[]> producer(Map<String, Object> settings) {
        Map<String, Object> defaults = new HashMap<>();
        defaults.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, API_TIMEOUT_MS);
        defaults.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
        defaults.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, API_TIMEOUT_MS + REQUEST_TIMEOUT_MS);
        Map<String, Object> fixed = new HashMap<>(settings);
        fixed.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        fixed.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new KafkaProducer<>(configure(defaults, fixed, ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> settings) {
        Map<String, Object> defaults = new HashMap<>();
        defaults.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, API_TIMEOUT_MS);
        defaults.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
        Map<String, Object> fixed = new HashMap<>(settings);
        fixed.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        fixed.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        fixed.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new KafkaConsumer<>(configure(defaults, fixed, ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    /** Describes {@code topic}; fails with "unknown topic" (or "cannot reach") before anything else happens. */
    static TopicDescription describeTopic(Admin admin, String topic) throws InterruptedException {
        try {
            return await(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic);
        } catch (UnknownTopicOrPartitionException e) {
            throw new CliException("unknown topic: " + topic);
        }
    }

    /** The result of an Admin call; its failure rethrown as the Kafka exception it carries. */
    static <T> T await(KafkaFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw CliErrors.unwrap(e);
        }
    }

    /**
     * The CLI's defaults, then {@code --command-config}, then what the command's own flags and
     * workings need ({@code fixed}), {@code --bootstrap-server}, and last the context's overrides.
     */
    private Map<String, Object> configure(Map<String, Object> defaults, Map<String, Object> fixed, String bootstrapKey) {
        Map<String, Object> config = new HashMap<>(defaults);
        config.putAll(commandConfig);
        config.putAll(fixed);
        config.put(bootstrapKey, bootstrapServer);
        config.putAll(overrides);
        return config;
    }
}
