package io.tributary.sink;

import io.tributary.hadoop.dataset.ValueDecodingException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies the {@link BadRecordPolicy} to records whose value does not decode. Dead letters carry
 * the original key, value and headers plus {@code tributary.error.*} headers naming the source
 * and the reason; {@link #flush()} makes them durable before any offset past them is committed.
 * {@link #handle} is called by the writer threads, the rest by the poll thread.
 */
final class BadRecords implements AutoCloseable {
    static final String HEADER_TOPIC = "tributary.error.topic";
    static final String HEADER_PARTITION = "tributary.error.partition";
    static final String HEADER_OFFSET = "tributary.error.offset";
    static final String HEADER_REASON = "tributary.error.reason";

    private static final Logger log = LoggerFactory.getLogger(BadRecords.class);

    private final BadRecordPolicy policy;
    private final Producer<byte[], byte[]> deadLetters; // null unless DEAD_LETTER
    private final String deadLetterTopic;
    private final AtomicLong count = new AtomicLong();
    private volatile Exception sendFailure;

    BadRecords(BadRecordPolicy policy, Producer<byte[], byte[]> deadLetters, String deadLetterTopic) {
        if (policy == BadRecordPolicy.DEAD_LETTER && (deadLetters == null || deadLetterTopic == null)) {
            throw new IllegalArgumentException("the dead-letter policy needs a producer and a topic");
        }
        this.policy = policy;
        this.deadLetters = deadLetters;
        this.deadLetterTopic = deadLetterTopic;
    }

    /**
     * Deals with {@code record}; returns if the sink may move past it.
     *
     * @throws BadRecordException under the fail policy
     */
    void handle(ConsumerRecord<byte[], byte[]> record, ValueDecodingException error) {
        switch (policy) {
            case FAIL:
                throw new BadRecordException(error);
            case SKIP:
                log.warn("skipping {} (bad records so far: {})", error.getMessage(), count.incrementAndGet());
                return;
            case DEAD_LETTER:
                count.incrementAndGet();
                RecordHeaders headers = new RecordHeaders(record.headers().toArray());
                headers.add(HEADER_TOPIC, utf8(record.topic()));
                headers.add(HEADER_PARTITION, utf8(Integer.toString(record.partition())));
                headers.add(HEADER_OFFSET, utf8(Long.toString(record.offset())));
                headers.add(HEADER_REASON, utf8(error.getMessage()));
                deadLetters.send(new ProducerRecord<>(deadLetterTopic, null, record.timestamp(), record.key(), record.value(), headers),
                    (metadata, e) -> {
                        if (e != null) {
                            sendFailure = e;
                        }
                    });
                log.warn("sent to dead-letter topic {}: {}", deadLetterTopic, error.getMessage());
                return;
            default:
                throw new IllegalStateException("unknown policy " + policy);
        }
    }

    /** Records skipped or dead-lettered so far. */
    long count() {
        return count.get();
    }

    /**
     * Waits until every dead letter sent so far is acknowledged.
     *
     * @throws KafkaException if one was not: the offsets past it must not be committed
     */
    void flush() {
        if (deadLetters != null) {
            deadLetters.flush();
            Exception failure = sendFailure;
            if (failure != null) {
                sendFailure = null;
                throw new KafkaException("a dead letter was not delivered to " + deadLetterTopic, failure);
            }
        }
    }

    @Override
    public void close() {
        if (deadLetters != null) {
            deadLetters.close();
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
