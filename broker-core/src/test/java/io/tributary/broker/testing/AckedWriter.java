package io.tributary.broker.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * An idempotent acks=all producer thread for fault tests: it sends increasing sequence numbers (as
 * decimal text values) round-robin over a topic's partitions, at most 20 unacknowledged, and
 * remembers which were acknowledged. Any send that finally fails is kept as {@link #failure}.
 */
public final class AckedWriter extends Thread {
    public final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    public final AtomicReference<Exception> failure = new AtomicReference<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Semaphore window = new Semaphore(20);
    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;

    public AckedWriter(String bootstrap, String topic, int partitions) {
        super("acked-writer");
        this.topic = topic;
        this.partitions = partitions;
        producer = Clients.producer(bootstrap, Map.of(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000, ProducerConfig.LINGER_MS_CONFIG, 5));
    }

    /** The sequence number a record of this writer carries. */
    public static long sequence(byte[] value) {
        return Long.parseLong(new String(value, StandardCharsets.UTF_8));
    }

    @Override
    public void run() {
        long sequence = 0;
        try {
            while (running.get() && failure.get() == null) {
                window.acquire();
                long sent = sequence++;
                producer.send(new ProducerRecord<>(topic, (int) (sent % partitions), null,
                        Long.toString(sent).getBytes(StandardCharsets.UTF_8)), (metadata, error) -> {
                            window.release();
                            if (error == null) {
                                acknowledged.add(sent);
                            } else {
                                failure.compareAndSet(null, error);
                            }
                        });
            }
        } catch (InterruptedException | KafkaException e) {
            failure.compareAndSet(null, e);
        }
    }

    /** Stops sending and waits for every record in flight to be acknowledged or to fail. */
    public void finish() throws InterruptedException {
        running.set(false);
        join(30_000);
        producer.close(Duration.ofSeconds(60));
    }
}
