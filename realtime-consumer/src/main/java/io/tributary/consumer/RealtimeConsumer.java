package io.tributary.consumer;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A live, at-least-once consumer for any Kafka-compatible broker. Records of one partition are
 * handled in order; different partitions in parallel on {@code parallelism} worker threads.
 * An offset is committed only after the handler finished the record (asynchronously, in batches,
 * and once more synchronously on revocation and on close). Failing records are retried and then
 * dead-lettered or stop the consumer. Partitions whose queue is full are paused until it drains.
 *
 * <p>Threads: one poll thread owns the Kafka consumer; handlers run on the worker pool.
 * {@link #close(Duration)}, {@link #metrics()} and the other methods may be called from any thread.
 */
public final class RealtimeConsumer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RealtimeConsumer.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final Duration FAILURE_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DEAD_LETTER_SEND_TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Thread pollThread;
    private final Set<Thread> workerThreads;
    private final StopSignal stop;
    private final MetricsReporter metrics;
    private final Time time;

    private RealtimeConsumer(Thread pollThread, Set<Thread> workerThreads, StopSignal stop,
                             MetricsReporter metrics, Time time) {
        this.pollThread = pollThread;
        this.workerThreads = workerThreads;
        this.stop = stop;
        this.metrics = metrics;
        this.time = time;
    }

    public static RealtimeConsumerBuilder<byte[], byte[]> builder() {
        return new RealtimeConsumerBuilder<>();
    }

    static RealtimeConsumer start(RealtimeConsumerBuilder<?, ?> settings) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(settings));
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            return start(settings, consumer, resources);
        } catch (RuntimeException e) {
            // Bad settings (e.g. of the dead-letter producer): release what was created already.
            consumer.close(CloseOptions.timeout(Duration.ZERO));
            closeAll(resources);
            throw e;
        }
    }

    private static RealtimeConsumer start(RealtimeConsumerBuilder<?, ?> settings,
                                          KafkaConsumer<byte[], byte[]> consumer, List<AutoCloseable> resources) {
        String name = "tributary-consumer-" + INSTANCES.incrementAndGet();
        Time time = Time.SYSTEM;
        StopSignal stop = new StopSignal(consumer::wakeup, FAILURE_CLOSE_TIMEOUT.toMillis());

        Set<Thread> workerThreads = ConcurrentHashMap.newKeySet();
        AtomicInteger workerNumber = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(settings.parallelism, task -> {
            Thread thread = new Thread(task, name + "-worker-" + workerNumber.incrementAndGet());
            thread.setDaemon(true);
            workerThreads.add(thread);
            return thread;
        });
        resources.add(() -> {
            pool.shutdownNow();
            pool.awaitTermination(5, TimeUnit.SECONDS);
        });
        Optional<DeadLetterPublisher> deadLetters = settings.failurePolicy.deadLetterTopic()
                .map(topic -> new DeadLetterPublisher(new KafkaProducer<>(producerConfig(settings)), topic,
                        DEAD_LETTER_SEND_TIMEOUT));
        deadLetters.ifPresent(resources::add);
        HandlerInvoker invoker = settings.invoker();
        resources.add(invoker);

        RecordProcessor processor = new RecordProcessor(invoker, settings.retryPolicy, deadLetters, time);
        PartitionWorkers workers = new PartitionWorkers(partition -> new PartitionWorker(partition, processor, pool,
                settings.maxBatchSize, failure -> stop.fail(failure, time.milliseconds()), time), time);
        OffsetCommitter committer = new OffsetCommitter(consumer, time, settings.commitInterval);
        RebalanceHandler rebalanceHandler = new RebalanceHandler(consumer, workers, committer,
                settings.startPosition, settings.revocationTimeout);
        MetricsReporter metrics = new MetricsReporter(time, settings.metricsInterval, settings.logMetrics);
        PollLoop loop = new PollLoop(consumer, settings.subscription, workers, committer, rebalanceHandler, metrics,
                new Backpressure(settings.maxQueuedPerPartition), POLL_TIMEOUT, stop, resources, time);

        Thread pollThread = new Thread(loop, name + "-poll");
        pollThread.setDaemon(true);
        pollThread.start();
        return new RealtimeConsumer(pollThread, workerThreads, stop, metrics, time);
    }

    /** Closes each of {@code resources}, logging (not throwing) failures. */
    static void closeAll(List<AutoCloseable> resources) {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                log.warn("Error while closing {}: {}", resource, e.toString());
            }
        }
    }

    private static Map<String, Object> consumerConfig(RealtimeConsumerBuilder<?, ?> settings) {
        Map<String, Object> config = new HashMap<>(settings.clientProperties);
        config.putAll(settings.consumerProperties);
        config.putIfAbsent(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        // Handlers see committed records only: never an aborted one, nor one of a transaction still open.
        config.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, settings.startPosition.autoOffsetReset());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return config;
    }

    private static Map<String, Object> producerConfig(RealtimeConsumerBuilder<?, ?> settings) {
        Map<String, Object> config = new HashMap<>(settings.clientProperties);
        config.putAll(settings.producerProperties);
        config.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return config;
    }

    /** Per-partition figures of the last completed metrics interval, for the assigned partitions. */
    public Map<TopicPartition, PartitionStats> metrics() {
        return metrics.latest();
    }

    /** True until the consumer has closed, whether by {@link #close} or by a failure. */
    public boolean isRunning() {
        return pollThread.isAlive();
    }

    /** Why the consumer stopped on its own (a record that failed for good, a fatal client error). */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(stop.failure());
    }

    /** Waits until the consumer has stopped; returns false on timeout. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        pollThread.join(Math.max(1, timeout.toMillis()));
        return !pollThread.isAlive();
    }

    /**
     * Stops consuming: lets handler calls in progress finish, commits every finished record,
     * leaves the group and releases all threads, within {@code timeout}. Queued records that did
     * not start stay uncommitted and are delivered again to the next owner. Callable from any
     * thread; from a handler (or the poll thread) it only requests the stop and returns at once,
     * since waiting there would wait for itself.
     */
    public void close(Duration timeout) {
        stop.request(time.milliseconds() + timeout.toMillis());
        Thread current = Thread.currentThread();
        if (current == pollThread || workerThreads.contains(current)) {
            return;
        }
        try {
            awaitTermination(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@link #close(Duration)} with 30 seconds. */
    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }
}
