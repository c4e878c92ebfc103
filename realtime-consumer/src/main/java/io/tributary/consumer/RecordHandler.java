package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Handles one record. Called on a worker thread; records of one partition arrive in offset order,
 * records of different partitions may be handled concurrently. Throwing makes the consumer retry
 * the record and, once retries are exhausted, apply its {@link FailurePolicy}.
 */
@FunctionalInterface
public interface RecordHandler<K, V> {
    void handle(ConsumerRecord<K, V> record) throws Exception;
}
