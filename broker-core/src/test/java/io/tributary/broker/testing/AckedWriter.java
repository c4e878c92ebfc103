package io.tributary.broker.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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

    /**
     * Reads the whole topic back and checks what this writer's records promise: every acknowledged one is there,
     * each partition holds them in send order and none twice. Records that are not this writer's (negative
     * sequence numbers: a test's probes) are skipped.
     */
    public void assertEveryAcknowledgedRecordStoredOnceInOrder(String bootstrap, Duration timeout) {
        Map<Integer, List<Long>> stored = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : Records.readAll(bootstrap, topic, timeout)) {
            long sequence = sequence(record.value());
            if (sequence >= 0) {
                stored.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(sequence);
            }
        }
        for (List<Long> sequences : stored.values()) {
            assertThat(sequences).as("each partition in send order, nothing twice").isSorted().doesNotHaveDuplicates();
        }
        Set<Long> missing = new HashSet<>(acknowledged);
        stored.values().forEach(missing::removeAll);
        assertThat(missing).as("acknowledged records missing from the log (of " + acknowledged.size() + ")").isEmpty();
    }

    /** Stops sending and waits for every record in flight to be acknowledged or to fail. */
    public void finish() throws InterruptedException {
        running.set(false);
        join(30_000);
        producer.close(Duration.ofSeconds(60));
    }
}
