package io.tributary.sink;

import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** An {@link HdfsSink} running on its own thread in the test JVM; {@link #close()} stops it cleanly. */
final class RunningSink implements AutoCloseable {
    private final HdfsSink sink;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean failureExpected;

    private RunningSink(HdfsSink sink) {
        this.sink = sink;
        this.thread = new Thread(() -> {
            try {
                sink.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "test-sink");
        thread.start();
    }

    static RunningSink start(Map<String, ?> props) throws IOException {
        return start(new SinkConfig(props));
    }

    static RunningSink start(SinkConfig config) throws IOException {
        return new RunningSink(SinkFactory.create(config, Time.SYSTEM));
    }

    HdfsSink sink() {
        return sink;
    }

    /** What made the loop end on its own, if it did. */
    Throwable failure() {
        return failure.get();
    }

    boolean isRunning() {
        return thread.isAlive();
    }

    /** Waits for the loop to end on its own and returns why it did. */
    Throwable awaitFailure(Duration timeout) throws InterruptedException {
        failureExpected = true;
        thread.join(timeout.toMillis());
        assertThat(thread.isAlive()).as("sink still running after %s", timeout).isFalse();
        assertThat(failure.get()).as("sink failure").isNotNull();
        return failure.get();
    }

    @Override
    public void close() throws InterruptedException {
        sink.stop();
        assertThat(sink.awaitStopped(Duration.ofSeconds(60))).as("sink stopped in time").isTrue();
        thread.join(10_000);
        if (!failureExpected) {
            assertThat(failure.get()).as("sink failure").isNull();
        }
    }
}
