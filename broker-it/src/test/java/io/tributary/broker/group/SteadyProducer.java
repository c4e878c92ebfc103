package io.tributary.broker.group;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import io.tributary.broker.testing.Clients;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Writes to every partition of a topic in turn, one record every 2 ms, on a thread of its own until it is closed, so
 * that a group is consumed while its members change. {@link #stop()} returns the partitions' end offsets.
 */
final class SteadyProducer implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final Map<TopicPartition, Long> ends = new HashMap<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;

    SteadyProducer(String bootstrap, String topic, int partitions) {
        this.producer = Clients.producer(bootstrap);
        this.thread = new Thread(() -> {
            try {
                for (long i = 0; running; i++) {
                    producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null, ("r" + i).getBytes()), (metadata, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        } else {
                            synchronized (ends) {
                                ends.merge(new TopicPartition(topic, metadata.partition()), metadata.offset() + 1, Math::max);
                            }
                        }
                    });
                    Thread.sleep(2); // a steady trickle, not a flood the members would take long to catch up with
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "steady-producer-" + topic);
        thread.start();
    }

    /** Stops, waits for every record sent to be acknowledged, and returns the end offset of each partition. */
    Map<TopicPartition, Long> stop() throws InterruptedException {
        running = false;
        thread.join(10_000);
        producer.flush();
        if (failure.get() != null) {
            throw new AssertionError("a record could not be written", failure.get());
        }
        synchronized (ends) {
            return Map.copyOf(ends);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        producer.close(Duration.ofSeconds(10));
    }
}
