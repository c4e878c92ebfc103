package io.tributary.chaos.load;

import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kafka-clients' idempotent producer with acks=all, writing {@code java-<n>} to partition
 * {@code n % partitions} at a bounded rate, the partitions in turn. Each partition has its own
 * budget of records outstanding: a partition that is not being served uses up its own and is
 * passed over until acknowledgements come back, while the others go on being written (so how soon
 * each partition is served again after a fault is measured on that partition, not on the slowest).
 * Each acknowledgement goes to the {@link AckLog} with the offset the broker gave. A producer that
 * reaches a fatal state is replaced (and the error recorded), so one error does not end the run.
 */
public final class JavaProducerLoad implements Load {
    private static final Logger log = LoggerFactory.getLogger(JavaProducerLoad.class);
    private static final String SOURCE = "java";
    private static final int MAX_OUTSTANDING_PER_PARTITION = 200;

    private final String bootstrap;
    private final String topic;
    private final int partitions;
    private final int recordsPerSecond;
    private final AckLog ackLog;
    private final Semaphore[] outstanding;
    private final Thread sender = new Thread(this::run, "chaos-java-producer");
    private volatile boolean stopping;

    public JavaProducerLoad(String bootstrap, String topic, int partitions, int recordsPerSecond, AckLog ackLog) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.partitions = partitions;
        this.recordsPerSecond = recordsPerSecond;
        this.ackLog = ackLog;
        this.outstanding = new Semaphore[partitions];
        Arrays.setAll(outstanding, p -> new Semaphore(MAX_OUTSTANDING_PER_PARTITION));
    }

    private Properties settings() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        // Longer than any fault, so a record outlives one and is acknowledged or refused, never given up silently.
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "180000");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "180000");
        props.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "100");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return props;
    }

    @Override
    public void start() {
        sender.start();
    }

    private void run() {
        long[] sent = new long[partitions]; // records sent to each partition: the next is java-<sent[p] * partitions + p>
        long turn = 0;
        long pauseNanos = TimeUnit.SECONDS.toNanos(1) / recordsPerSecond;
        long next = System.nanoTime();
        while (!stopping) {
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(settings())) {
                while (!stopping) {
                    int partition = (int) (turn++ % partitions);
                    if (outstanding[partition].tryAcquire()) {
                        send(producer, partition, SOURCE + "-" + (sent[partition]++ * partitions + partition));
                    }
                    next += pauseNanos;
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    } else {
                        next = System.nanoTime();
                    }
                }
                producer.flush();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (KafkaException | IllegalStateException e) {
                // A fatal producer state (for example after a non-retriable idempotence error): record it, start afresh.
                log.warn("producer failed, replacing it: {}", e.toString());
                ackLog.failed(new ClientError(SOURCE, e.getClass().getSimpleName(), false, String.valueOf(e.getMessage())));
                for (Semaphore budget : outstanding) {
                    budget.drainPermits();
                    budget.release(MAX_OUTSTANDING_PER_PARTITION);
                }
            }
        }
    }

    private void send(KafkaProducer<String, String> producer, int partition, String payload) {
        ackLog.sent(payload);
        producer.send(new ProducerRecord<>(topic, partition, null, payload), (metadata, error) -> {
            outstanding[partition].release();
            if (error == null) {
                ackLog.acknowledged(new Ack(payload, metadata.partition(), metadata.offset(), System.nanoTime()));
            } else {
                ackLog.failed(new ClientError(SOURCE, error.getClass().getSimpleName(),
                        error instanceof RetriableException, String.valueOf(error.getMessage())));
            }
        });
    }

    @Override
    public void close() {
        stopping = true;
        try {
            sender.join(Duration.ofSeconds(200).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
            throw new IllegalStateException("the Java producer did not finish its sends within 200 s");
        }
    }
}
