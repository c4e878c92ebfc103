package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;

/**
 * Runs the handler on a chunk of one partition's records, in order: retries each failing unit
 * with backoff, then dead-letters it or stops, as configured. Stateless apart from its
 * collaborators, so one instance serves every partition. Thread-safe. The latency reported for a
 * unit runs from its first attempt until it is done, retries and dead-lettering included.
 */
final class RecordProcessor {
    private static final Logger log = LoggerFactory.getLogger(RecordProcessor.class);

    private final HandlerInvoker invoker;
    private final RetryPolicy retryPolicy;
    private final Optional<DeadLetterPublisher> deadLetters;
    private final Time time;

    RecordProcessor(HandlerInvoker invoker, RetryPolicy retryPolicy,
                    Optional<DeadLetterPublisher> deadLetters, Time time) {
        this.invoker = invoker;
        this.retryPolicy = retryPolicy;
        this.deadLetters = deadLetters;
        this.time = time;
    }

    /**
     * Processes {@code chunk} (consecutive records of one partition), reporting each finished unit
     * to {@code progress}. Returns false if it stopped early: aborted, or failed for good.
     */
    boolean process(List<ConsumerRecord<byte[], byte[]>> chunk, WorkProgress progress) throws InterruptedException {
        if (!invoker.perRecord()) {
            return processUnit(chunk, progress);
        }
        for (ConsumerRecord<byte[], byte[]> record : chunk) {
            if (!processUnit(List.of(record), progress)) {
                return false;
            }
        }
        return true;
    }

    private boolean processUnit(List<ConsumerRecord<byte[], byte[]>> unit, WorkProgress progress)
            throws InterruptedException {
        long start = time.nanoseconds();
        for (int retry = 0; ; retry++) {
            if (progress.aborted()) {
                return false;
            }
            try {
                invoker.invoke(unit);
                progress.completed(unit, time.nanoseconds() - start);
                return true;
            } catch (Exception failure) {
                if (retry == retryPolicy.maxRetries()) {
                    return exhausted(unit, failure, progress, start);
                }
                log.warn("Handler failed on {} (attempt {} of {}), retrying: {}", describe(unit), retry + 1,
                        retryPolicy.maxRetries() + 1, failure.toString());
                if (progress.awaitAbort(retryPolicy.backoffBefore(retry + 1))) {
                    return false;
                }
            }
        }
    }

    private boolean exhausted(List<ConsumerRecord<byte[], byte[]>> unit, Exception failure, WorkProgress progress,
                              long start) {
        String attempts = (retryPolicy.maxRetries() + 1) + " attempt(s)";
        if (deadLetters.isEmpty()) {
            log.error("Handler failed on {} after {}; stopping", describe(unit), attempts, failure);
            progress.failed(new RecordProcessingException(
                    "handler failed on " + describe(unit) + " after " + attempts, failure));
            return false;
        }
        DeadLetterPublisher publisher = deadLetters.get();
        try {
            for (ConsumerRecord<byte[], byte[]> record : unit) {
                publisher.publish(record, failure);
            }
        } catch (Exception publishFailure) {
            if (publishFailure instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            publishFailure.addSuppressed(failure);
            progress.failed(new RecordProcessingException("could not dead-letter " + describe(unit)
                    + " to " + publisher.topic(), publishFailure));
            return false;
        }
        log.warn("Handler failed on {} after {}; sent to dead-letter topic {}: {}", describe(unit), attempts,
                publisher.topic(), failure.toString());
        progress.completed(unit, time.nanoseconds() - start);
        return true;
    }

    /** {@code topic-partition@offset} or {@code topic-partition@first..last}. */
    static String describe(List<ConsumerRecord<byte[], byte[]>> unit) {
        ConsumerRecord<byte[], byte[]> first = unit.get(0);
        ConsumerRecord<byte[], byte[]> last = unit.get(unit.size() - 1);
        String where = first.topic() + "-" + first.partition() + "@" + first.offset();
        return first == last ? where : where + ".." + last.offset();
    }
}
