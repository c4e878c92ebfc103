package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.time.Duration;
import java.util.List;

/** What a {@link RecordProcessor} reports to, and asks of, the partition worker that runs it. */
interface WorkProgress {
    /** {@code records} are done (handled or dead-lettered); the handler call took {@code latencyNanos}. */
    void completed(List<ConsumerRecord<byte[], byte[]>> records, long latencyNanos);

    /** Processing of this partition must stop because of {@code failure}; nothing after it is done. */
    void failed(Throwable failure);

    /** True once the partition was revoked or the consumer is closing: start nothing new. */
    boolean aborted();

    /** Waits up to {@code backoff}; returns true early if the work was aborted meanwhile. */
    boolean awaitAbort(Duration backoff) throws InterruptedException;
}
