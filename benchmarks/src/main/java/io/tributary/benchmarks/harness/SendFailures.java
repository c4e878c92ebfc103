package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** A send callback that counts failed sends, so that a phase with lost records is rejected, not reported. */
final class SendFailures implements Callback {
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Exception> first = new AtomicReference<>();

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
        if (exception != null) {
            failed.incrementAndGet();
            first.compareAndSet(null, exception);
        }
    }

    /** Throws if any send so far failed; call after {@code flush()}. */
    void throwIfAny(String what) {
        if (failed.get() > 0) {
            throw new IllegalStateException(what + ": " + failed.get() + " sends failed", first.get());
        }
    }
}
