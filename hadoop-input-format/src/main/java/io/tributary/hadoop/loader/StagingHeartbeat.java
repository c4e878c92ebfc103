package io.tributary.hadoop.loader;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a live job's staging area from looking abandoned ({@link LoaderConfig#STAGING_ABANDONED_AFTER_MS}):
 * from the job's set-up to its commit or abort, the job's own process (the application master, or
 * the local job runner) touches the {@code STAGED} token every
 * {@link LoaderConfig#STAGING_HEARTBEAT_INTERVAL_MS}. A job whose process died stops touching it; a
 * loader that only looks slow keeps it fresh however long its tasks run.
 */
final class StagingHeartbeat implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StagingHeartbeat.class);

    private final FileSystem fs;
    private final Path token;
    private final Duration interval;
    private final ScheduledExecutorService timer;

    private StagingHeartbeat(FileSystem fs, Path token, Duration interval) {
        this.fs = fs;
        this.token = token;
        this.interval = interval;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "staging-heartbeat " + token.getParent().getName());
            thread.setDaemon(true);
            return thread;
        });
    }

    static StagingHeartbeat start(FileSystem fs, Path token, Duration interval) {
        StagingHeartbeat heartbeat = new StagingHeartbeat(fs, token, interval);
        heartbeat.timer.scheduleWithFixedDelay(heartbeat::beatOrWarn, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return heartbeat;
    }

    /** Sets the token's modification time to now. */
    void beat() throws IOException {
        fs.setTimes(token, System.currentTimeMillis(), -1);
    }

    private void beatOrWarn() {
        try {
            beat();
        } catch (IOException | RuntimeException e) {
            log.warn("could not touch {} (tried again in {}): {}", token, interval, e.toString());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
