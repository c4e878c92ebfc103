package io.tributary.chaos.load;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A consumer group member reading the topic along with the faults, committing as it goes (at
 * least once: it may read a record twice after a rebalance, never miss one that stays in the log).
 */
public final class GroupReader implements Load {
    private final KafkaConsumer<String, String> consumer;
    private final String topic;
    private final Set<String> consumed = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Thread poller = new Thread(this::run, "chaos-group-reader");
    private volatile boolean stopping;

    public GroupReader(String bootstrap, String topic, String group) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        this.consumer = new KafkaConsumer<>(props);
        this.topic = topic;
    }

    @Override
    public void start() {
        poller.start();
    }

    private void run() {
        try {
            consumer.subscribe(List.of(topic));
            while (!stopping) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    consumed.add(record.value());
                }
            }
        } catch (WakeupException stopped) {
            // close() woke us
        } catch (Exception e) {
            failure.set(e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Waits until the group has read every one of {@code payloads}. @return the ones it has not read by the deadline */
    public Set<String> awaitConsumed(Set<String> payloads, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && failure.get() == null && !consumed.containsAll(payloads)) {
            Thread.sleep(100);
        }
        Set<String> missing = ConcurrentHashMap.newKeySet();
        payloads.stream().filter(p -> !consumed.contains(p)).forEach(missing::add);
        return missing;
    }

    /** What stopped the group member, if anything did. */
    public Exception failure() {
        return failure.get();
    }

    @Override
    public void close() {
        stopping = true;
        consumer.wakeup();
        try {
            poller.join(20_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
