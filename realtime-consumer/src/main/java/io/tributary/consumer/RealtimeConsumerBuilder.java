package io.tributary.consumer;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Configures a {@link RealtimeConsumer}. Required: bootstrap servers, group, topics or a pattern,
 * and a record or a batch handler. Key and value stay {@code byte[]} unless deserializers are set
 * (set them before the handler: they fix the handler's types).
 *
 * <pre>
 * RealtimeConsumer consumer = RealtimeConsumer.builder()
 *         .bootstrapServers("127.0.0.1:9092")
 *         .groupId("billing")
 *         .topics("orders")
 *         .keyDeserializer(new StringDeserializer())
 *         .valueDeserializer(new StringDeserializer())
 *         .parallelism(8)
 *         .retryPolicy(RetryPolicy.exponential(3, Duration.ofMillis(100), Duration.ofSeconds(5)))
 *         .failurePolicy(FailurePolicy.deadLetter("orders.dlq"))
 *         .recordHandler(record -&gt; bill(record.value()))
 *         .start();
 * </pre>
 */
public final class RealtimeConsumerBuilder<K, V> {
    String bootstrapServers;
    String groupId;
    Subscription subscription;
    Deserializer<?> keyDeserializer = new ByteArrayDeserializer();
    Deserializer<?> valueDeserializer = new ByteArrayDeserializer();
    RecordHandler<K, V> recordHandler;
    BatchHandler<K, V> batchHandler;
    int parallelism = Runtime.getRuntime().availableProcessors();
    int maxQueuedPerPartition = 1000;
    int maxBatchSize = 500;
    Duration commitInterval = Duration.ofSeconds(1);
    Duration revocationTimeout = Duration.ofSeconds(15);
    RetryPolicy retryPolicy = RetryPolicy.exponential(3, Duration.ofMillis(100), Duration.ofSeconds(5));
    FailurePolicy failurePolicy = FailurePolicy.stop();
    StartPosition startPosition = StartPosition.latest();
    Duration metricsInterval = Duration.ofSeconds(30);
    boolean logMetrics = true;
    final Map<String, Object> clientProperties = new HashMap<>();
    final Map<String, Object> consumerProperties = new HashMap<>();
    final Map<String, Object> producerProperties = new HashMap<>();

    RealtimeConsumerBuilder() {
    }

    public RealtimeConsumerBuilder<K, V> bootstrapServers(String bootstrapServers) {
        this.bootstrapServers = requireText(bootstrapServers, "bootstrapServers");
        return this;
    }

    public RealtimeConsumerBuilder<K, V> groupId(String groupId) {
        this.groupId = requireText(groupId, "groupId");
        return this;
    }

    public RealtimeConsumerBuilder<K, V> topics(String... topics) {
        this.subscription = Subscription.topics(Arrays.asList(topics));
        return this;
    }

    public RealtimeConsumerBuilder<K, V> topics(List<String> topics) {
        this.subscription = Subscription.topics(topics);
        return this;
    }

    /** Subscribes to every topic matching {@code pattern}, including topics created later. */
    public RealtimeConsumerBuilder<K, V> topicPattern(Pattern pattern) {
        this.subscription = Subscription.pattern(Objects.requireNonNull(pattern, "pattern"));
        return this;
    }

    /** Deserializers are called from worker threads concurrently, so they must be thread-safe. */
    @SuppressWarnings("unchecked")
    public <K2> RealtimeConsumerBuilder<K2, V> keyDeserializer(Deserializer<K2> deserializer) {
        requireNoHandlerYet();
        this.keyDeserializer = Objects.requireNonNull(deserializer, "deserializer");
        return (RealtimeConsumerBuilder<K2, V>) this;
    }

    /** Deserializers are called from worker threads concurrently, so they must be thread-safe. */
    @SuppressWarnings("unchecked")
    public <V2> RealtimeConsumerBuilder<K, V2> valueDeserializer(Deserializer<V2> deserializer) {
        requireNoHandlerYet();
        this.valueDeserializer = Objects.requireNonNull(deserializer, "deserializer");
        return (RealtimeConsumerBuilder<K, V2>) this;
    }

    public RealtimeConsumerBuilder<K, V> recordHandler(RecordHandler<K, V> handler) {
        this.recordHandler = Objects.requireNonNull(handler, "handler");
        this.batchHandler = null;
        return this;
    }

    public RealtimeConsumerBuilder<K, V> batchHandler(BatchHandler<K, V> handler) {
        this.batchHandler = Objects.requireNonNull(handler, "handler");
        this.recordHandler = null;
        return this;
    }

    /** Worker threads, i.e. how many partitions are handled at the same time. Default: CPU count. */
    public RealtimeConsumerBuilder<K, V> parallelism(int threads) {
        this.parallelism = requirePositive(threads, "parallelism");
        return this;
    }

    /** A partition is paused once this many of its records wait for the handler. Default 1000. */
    public RealtimeConsumerBuilder<K, V> maxQueuedPerPartition(int records) {
        this.maxQueuedPerPartition = requirePositive(records, "maxQueuedPerPartition");
        return this;
    }

    /** Most records handed to one batch-handler call (and handled per worker turn). Default 500. */
    public RealtimeConsumerBuilder<K, V> maxBatchSize(int records) {
        this.maxBatchSize = requirePositive(records, "maxBatchSize");
        return this;
    }

    /** How often finished offsets are committed asynchronously. Default 1 s. */
    public RealtimeConsumerBuilder<K, V> commitInterval(Duration interval) {
        this.commitInterval = requirePositive(interval, "commitInterval");
        return this;
    }

    /**
     * How long a revocation waits for handler calls in progress before the partitions are released
     * anyway. Keep it well below {@code max.poll.interval.ms}. Default 15 s.
     */
    public RealtimeConsumerBuilder<K, V> revocationTimeout(Duration timeout) {
        this.revocationTimeout = requirePositive(timeout, "revocationTimeout");
        return this;
    }

    public RealtimeConsumerBuilder<K, V> retryPolicy(RetryPolicy policy) {
        this.retryPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** After the last retry: {@link FailurePolicy#stop()} (default) or a dead-letter topic. */
    public RealtimeConsumerBuilder<K, V> failurePolicy(FailurePolicy policy) {
        this.failurePolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** Where a group without committed offsets starts. Default: latest. */
    public RealtimeConsumerBuilder<K, V> startPosition(StartPosition position) {
        this.startPosition = Objects.requireNonNull(position, "position");
        return this;
    }

    /** How often per-partition figures are sampled and, if {@code log}, logged at INFO. Default 30 s. */
    public RealtimeConsumerBuilder<K, V> metricsInterval(Duration interval, boolean log) {
        this.metricsInterval = requirePositive(interval, "metricsInterval");
        this.logMetrics = log;
        return this;
    }

    /**
     * A kafka-clients setting for every client this consumer creates (the Kafka consumer and the
     * dead-letter producer), such as the security settings {@code security.protocol}, {@code ssl.*}
     * and {@code sasl.*}. A {@link #consumerProperty} or {@link #producerProperty} of the same name wins.
     */
    public RealtimeConsumerBuilder<K, V> clientProperty(String name, Object value) {
        clientProperties.put(requireText(name, "name"), value);
        return this;
    }

    /** {@link #clientProperty} for each of {@code properties} (e.g. a client properties file loaded). */
    public RealtimeConsumerBuilder<K, V> clientProperties(Map<String, ?> properties) {
        properties.forEach(this::clientProperty);
        return this;
    }

    /**
     * Any other Kafka consumer setting, e.g. {@code client.id} or {@code session.timeout.ms}. The
     * consumer manages {@code enable.auto.commit}, the deserializers and {@code auto.offset.reset} itself.
     * It reads {@code isolation.level=read_committed} unless set to {@code read_uncommitted} here
     * (which hands aborted records and those of open transactions to the handler too).
     */
    public RealtimeConsumerBuilder<K, V> consumerProperty(String name, Object value) {
        consumerProperties.put(requireText(name, "name"), value);
        return this;
    }

    /** A Kafka producer setting for the dead-letter producer. */
    public RealtimeConsumerBuilder<K, V> producerProperty(String name, Object value) {
        producerProperties.put(requireText(name, "name"), value);
        return this;
    }

    /** Validates the settings, joins the group and starts consuming in a background thread. */
    public RealtimeConsumer start() {
        if (bootstrapServers == null || groupId == null || subscription == null) {
            throw new IllegalStateException("bootstrapServers, groupId and topics (or topicPattern) are required");
        }
        if (recordHandler == null && batchHandler == null) {
            throw new IllegalStateException("a recordHandler or a batchHandler is required");
        }
        return RealtimeConsumer.start(this);
    }

    @SuppressWarnings("unchecked")
    HandlerInvoker invoker() {
        Deserializer<K> keys = (Deserializer<K>) keyDeserializer;
        Deserializer<V> values = (Deserializer<V>) valueDeserializer;
        return recordHandler != null
                ? DeserializingInvoker.forRecords(keys, values, recordHandler)
                : DeserializingInvoker.forBatches(keys, values, batchHandler);
    }

    private void requireNoHandlerYet() {
        if (recordHandler != null || batchHandler != null) {
            throw new IllegalStateException("set the deserializers before the handler");
        }
    }

    private static String requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        return value;
    }

    private static int requirePositive(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, got " + value);
        }
        return value;
    }

    private static Duration requirePositive(Duration value, String name) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
        return value;
    }
}
