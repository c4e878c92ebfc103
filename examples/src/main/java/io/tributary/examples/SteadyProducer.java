package io.tributary.examples;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Time;

import java.util.function.Supplier;

/**
 * Produces records from a source at a steady rate on its own thread until {@link #stop()}: a
 * synthetic live stream. {@link #stop()} flushes, so afterwards {@link #produced()} is final.
 */
public final class SteadyProducer<K, V> {
    private static final long TICK_MS = 10;

    private final CountingProducer<K, V> producer;
    private final Supplier<ProducerRecord<K, V>> source;
    private final int recordsPerSecond;
    private final Time time;
    private final Thread thread;
    private volatile boolean stopping;

    public SteadyProducer(CountingProducer<K, V> producer, Supplier<ProducerRecord<K, V>> source,
                          int recordsPerSecond, Time time) {
        if (recordsPerSecond < 1) {
            throw new IllegalArgumentException("rate must be at least 1 record/s, got " + recordsPerSecond);
        }
        this.producer = producer;
        this.source = source;
        this.recordsPerSecond = recordsPerSecond;
        this.time = time;
        this.thread = new Thread(this::produce, "steady-producer");
        this.thread.setDaemon(true);
    }

    public SteadyProducer<K, V> start() {
        thread.start();
        return this;
    }

    private void produce() {
        long startMs = time.milliseconds();
        long sent = 0;
        while (!stopping) {
            long due = (time.milliseconds() - startMs) * recordsPerSecond / 1000;
            for (; sent < due && !stopping; sent++) {
                producer.send(source.get());
            }
            time.sleep(TICK_MS);
        }
    }

    /** Stops producing and waits until every record sent is acknowledged (or failed: then it throws). */
    public void stop() throws InterruptedException {
        stopping = true;
        thread.join();
        producer.flush();
    }

    /** Records acknowledged by the broker so far. */
    public long produced() {
        return producer.acknowledged();
    }
}
