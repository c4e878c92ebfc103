package io.tributary.examples;

import io.tributary.sink.HdfsSink;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkFactory;
import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.Map;

/** The hdfs-sink, as {@code bin/tributary-sink} runs it, on a thread of this JVM. */
public final class BackgroundSink implements AutoCloseable {
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final HdfsSink sink;
    private final Thread thread;

    private BackgroundSink(HdfsSink sink) {
        this.sink = sink;
        this.thread = new Thread(this::run, "hdfs-sink");
        this.thread.setDaemon(true);
    }

    /** Starts a sink with the settings of {@code config/sink.properties}, as keys of {@link SinkConfig}. */
    public static BackgroundSink start(Map<String, String> settings) throws Exception {
        BackgroundSink running = new BackgroundSink(SinkFactory.create(new SinkConfig(settings), Time.SYSTEM));
        running.thread.start();
        return running;
    }

    private void run() {
        try {
            sink.run();
        } catch (RuntimeException | Error e) {
            // kept by sink.failure(), which checkHealthy() reports
        }
    }

    /** Throws what stopped the sink on its own, if it did. */
    public void checkHealthy() {
        sink.failure().ifPresent(e -> {
            throw new IllegalStateException("the sink failed: " + e.getMessage(), e);
        });
    }

    /** Commits the open files and stops; throws if the sink had failed. */
    @Override
    public void close() throws InterruptedException {
        sink.stop();
        if (!sink.awaitStopped(STOP_TIMEOUT)) {
            throw new IllegalStateException("the sink did not stop within " + STOP_TIMEOUT.toSeconds() + " s");
        }
        thread.join();
        checkHealthy();
    }
}
