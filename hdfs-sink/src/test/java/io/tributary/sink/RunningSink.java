package io.tributary.sink;

import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** An {@link HdfsSink} running on its own thread in the test JVM; {@link #close()} stops it cleanly. */
final class RunningSink implements AutoCloseable {
    private final HdfsSink sink;
    private final Thread thread;
    private volatile boolean failureExpected;

    private RunningSink(HdfsSink sink) {
        this.sink = sink;
        this.thread = new Thread(() -> {
            try {
                sink.run();
            } catch (RuntimeException | Error e) {
                // kept by sink.failure()
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

    boolean isRunning() {
        return thread.isAlive();
    }

    /** Waits for the loop to end on its own and returns why it did. */
    Throwable awaitFailure(Duration timeout) throws InterruptedException {
        failureExpected = true;
        thread.join(timeout.toMillis());
        assertThat(thread.isAlive()).as("sink still running after %s", timeout).isFalse();
        return sink.failure().orElseThrow(() -> new AssertionError("the sink ended without a failure"));
    }

    @Override
    public void close() throws InterruptedException {
        sink.stop();
        assertThat(sink.awaitStopped(Duration.ofSeconds(60))).as("sink stopped in time").isTrue();
        thread.join(10_000);
        if (!failureExpected) {
            assertThat(sink.failure()).as("sink failure").isEmpty();
        }
    }
}
