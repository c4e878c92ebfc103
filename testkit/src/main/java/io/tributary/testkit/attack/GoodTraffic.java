package io.tributary.testkit.attack;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A well-behaved producer and consumer for attack tests and the attack harness: the producer sends {@code count}
 * records one at a time (default client settings: idempotent, acks=all), timing each but the first; the consumer
 * reads the topic meanwhile. {@link #finish} waits for both and reports what happened.
 */
public final class GoodTraffic {
    private final List<Long> latenciesMicros = Collections.synchronizedList(new ArrayList<>());
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final List<String> consumed = Collections.synchronizedList(new ArrayList<>());
    private final Thread producerThread;
    private final Thread consumerThread;
    private final int count;
    private volatile int sent;

    /** What the good clients saw. */
    public record Result(int sent, List<String> failures, List<String> consumed, long p99Micros) {
    }

    private GoodTraffic(String bootstrap, String topic, int count, long pauseMs) {
        this.count = count;
        producerThread = new Thread(() -> produce(bootstrap, topic, pauseMs), "good-producer");
        consumerThread = new Thread(() -> consume(bootstrap, topic), "good-consumer");
    }

    /** Creates {@code topic} with one partition and one replica, for the good traffic. */
    public static void createTopic(String bootstrap, String topic) throws ExecutionException, InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
    }

    /** Starts both clients on {@code topic} (which must exist, with one partition). */
    public static GoodTraffic start(String bootstrap, String topic, int count, long pauseMs) {
        GoodTraffic traffic = new GoodTraffic(bootstrap, topic, count, pauseMs);
        traffic.consumerThread.start();
        traffic.producerThread.start();
        return traffic;
    }

    public static String value(int i) {
        return "good-" + i;
    }

    private void produce(String bootstrap, String topic, long pauseMs) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                try {
                    producer.send(new ProducerRecord<>(topic, value(i).getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
                    sent++;
                    if (i > 0) { // the first send also fetches metadata and a producer id
                        latenciesMicros.add((System.nanoTime() - start) / 1000);
                    }
                } catch (ExecutionException | TimeoutException e) {
                    failures.add(value(i) + ": " + e);
                }
                Thread.sleep(pauseMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failures.add("producer: " + e);
        }
    }

    private void consume(String bootstrap, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (consumed.size() < count && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    consumed.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
        } catch (RuntimeException e) {
            failures.add("consumer: " + e);
        }
    }

    /** Waits (at most {@code timeout}) for the producer to finish and the consumer to read what it sent. */
    public Result finish(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        producerThread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        consumerThread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        producerThread.interrupt();
        consumerThread.interrupt();
        producerThread.join(10_000);
        consumerThread.join(10_000);
        List<Long> sorted;
        synchronized (latenciesMicros) {
            sorted = new ArrayList<>(latenciesMicros);
        }
        Collections.sort(sorted);
        long p99 = sorted.isEmpty() ? -1 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1));
        synchronized (consumed) {
            return new Result(sent, List.copyOf(failures), List.copyOf(consumed), p99);
        }
    }

    /** The values the producer sent, in order, when all went well. */
    public static List<String> expected(int count) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(value(i));
        }
        return values;
    }
}
