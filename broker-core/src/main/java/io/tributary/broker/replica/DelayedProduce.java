package io.tributary.broker.replica;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import io.tributary.broker.purgatory.DelayedOperation;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * An acks=-1 produce waiting for the ISR: each partition is done when its high watermark passes
 * the end of what was appended (or with an error once its leadership is lost); the response goes
 * out when all are done, or at the request timeout with REQUEST_TIMED_OUT for the rest.
 */
final class DelayedProduce extends DelayedOperation {
    private final Map<TopicPartition, Long> requiredOffsets;
    private final BiFunction<TopicPartition, Long, Errors> status;
    private final Map<TopicPartition, Errors> results = new ConcurrentHashMap<>();
    private final CompletableFuture<Map<TopicPartition, Errors>> result = new CompletableFuture<>();

    /**
     * @param requiredOffsets per partition, the high watermark that acknowledges the append
     * @param status          a partition's outcome so far: null while waiting, else NONE or an error
     */
    DelayedProduce(long timeoutMs, Map<TopicPartition, Long> requiredOffsets, BiFunction<TopicPartition, Long, Errors> status) {
        super(timeoutMs);
        this.requiredOffsets = Map.copyOf(requiredOffsets);
        this.status = status;
    }

    CompletableFuture<Map<TopicPartition, Errors>> result() {
        return result;
    }

    @Override
    public boolean tryComplete() {
        requiredOffsets.forEach((partition, required) -> {
            if (!results.containsKey(partition)) {
                Errors outcome = status.apply(partition, required);
                if (outcome != null) {
                    results.put(partition, outcome);
                }
            }
        });
        return results.size() == requiredOffsets.size() && forceComplete();
    }

    @Override
    protected void onComplete() {
        requiredOffsets.keySet().forEach(partition -> results.putIfAbsent(partition, Errors.REQUEST_TIMED_OUT));
        result.complete(Map.copyOf(results));
    }
}
