package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.List;

/**
 * Handles consecutive records of one partition at once (never mixing partitions), in offset
 * order. Throwing retries the whole batch; once retries are exhausted every record of the batch
 * goes through the {@link FailurePolicy}.
 */
@FunctionalInterface
public interface BatchHandler<K, V> {
    void handle(List<ConsumerRecord<K, V>> records) throws Exception;
}
