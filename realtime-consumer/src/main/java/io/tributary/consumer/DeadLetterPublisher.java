package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes records that exhausted their retries to the dead-letter topic: original key, value,
 * timestamp and headers, plus {@link DeadLetterHeaders}. Each publish waits for the broker's
 * acknowledgement, so an offset is never committed past a record that is not safely stored.
 * Thread-safe (the Kafka producer is).
 */
final class DeadLetterPublisher implements AutoCloseable {
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Duration sendTimeout;

    DeadLetterPublisher(Producer<byte[], byte[]> producer, String topic, Duration sendTimeout) {
        this.producer = producer;
        this.topic = topic;
        this.sendTimeout = sendTimeout;
    }

    String topic() {
        return topic;
    }

    void publish(ConsumerRecord<byte[], byte[]> record, Throwable failure)
            throws InterruptedException, ExecutionException, TimeoutException {
        RecordHeaders headers = new RecordHeaders(record.headers().toArray());
        headers.add(DeadLetterHeaders.TOPIC, utf8(record.topic()));
        headers.add(DeadLetterHeaders.PARTITION, utf8(Integer.toString(record.partition())));
        headers.add(DeadLetterHeaders.OFFSET, utf8(Long.toString(record.offset())));
        headers.add(DeadLetterHeaders.EXCEPTION_CLASS, utf8(failure.getClass().getName()));
        headers.add(DeadLetterHeaders.EXCEPTION_MESSAGE, utf8(String.valueOf(failure.getMessage())));
        ProducerRecord<byte[], byte[]> deadLetter = new ProducerRecord<>(topic, null,
                record.timestamp(), record.key(), record.value(), headers);
        producer.send(deadLetter).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
