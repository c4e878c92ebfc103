package io.tributary.broker.testing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;

/** A consumer group member thread for fault tests: commits after every poll and remembers the {@link AckedWriter} sequences it consumed. */
public final class GroupReader extends Thread {
    public final Set<Long> consumed = ConcurrentHashMap.newKeySet();
    public final AtomicReference<Exception> failure = new AtomicReference<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final String bootstrap;
    private final String topic;
    private final String group;

    public GroupReader(String bootstrap, String topic, String group) {
        super("group-reader");
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.group = group;
    }

    @Override
    public void run() {
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(bootstrap, Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000,
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000))) {
            consumer.subscribe(List.of(topic));
            while (running.get()) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> consumed.add(AckedWriter.sequence(record.value())));
                try {
                    consumer.commitSync(Duration.ofSeconds(10));
                } catch (KafkaException e) {
                    // a coordinator moving away fails the commit; the next one goes to its successor
                }
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    public void finish() throws InterruptedException {
        running.set(false);
        join(30_000);
    }
}
