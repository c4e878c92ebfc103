package io.tributary.sink;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code tributary-sink <config.properties> [--override key=value]...}: streams until SIGTERM or
 * Ctrl-C, then commits the open files and exits (143 / 130, as for any terminated JVM, after
 * logging {@value #STOPPED_CLEANLY}). Exit codes otherwise: 1 the sink failed (a bad record under
 * bad.record.policy=fail, records gone from the log under on.missing=fail, an unrecoverable error,
 * or a stop that could not commit), 2 bad usage.
 */
public final class SinkMain {
    static final String STOPPED_CLEANLY = "stopped cleanly: open files committed";
    private static final Logger log = LoggerFactory.getLogger(SinkMain.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private SinkMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        SinkConfig config;
        try {
            config = new SinkConfig(parse(args));
        } catch (IllegalArgumentException | ConfigException | IOException e) {
            System.err.println("tributary-sink: " + e.getMessage());
            System.err.println("usage: tributary-sink <config.properties> [--override key=value]...  (keys: config/sink.properties)");
            System.exit(2);
            return;
        }
        HdfsSink sink;
        try {
            sink = SinkFactory.create(config, Time.SYSTEM);
        } catch (IOException | RuntimeException e) {
            log.error("cannot start the sink", e);
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAndReport(sink), "tributary-sink-shutdown"));
        try {
            sink.run();
        } catch (RuntimeException | Error e) {
            System.exit(1); // runs the shutdown hook, which logs the failure
        }
    }

    /**
     * The shutdown hook, run on SIGTERM, Ctrl-C and System.exit alike: stops the sink and logs how
     * it ended. Unless the open files committed, it halts with 1, so a SIGTERM cannot exit 143
     * (the "stopped cleanly" status) over a failure.
     */
    private static void stopAndReport(HdfsSink sink) {
        sink.stop();
        try {
            if (!sink.awaitStopped(STOP_TIMEOUT)) {
                log.error("did not stop within {} s; open files are left for the next start to clean up",
                    STOP_TIMEOUT.toSeconds());
                Runtime.getRuntime().halt(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.error("interrupted while waiting for the sink to stop; open files are left for the next start to clean up");
            Runtime.getRuntime().halt(1);
        }
        Optional<Throwable> failure = sink.failure();
        if (failure.isPresent()) {
            try {
                if (explainsItself(failure.get())) {
                    log.error("the sink stopped: {}", failure.get().getMessage());
                } else {
                    log.error("the sink failed: {}", failure.get().getMessage(), failure.get());
                }
            } finally {
                Runtime.getRuntime().halt(1); // even if logging fails, e.g. after an OutOfMemoryError
            }
        }
        log.info(STOPPED_CLEANLY);
    }

    /**
     * Failures whose message says all there is to say, logged as one line: records the log no
     * longer has, and a login or an ACL the brokers refused (a wrong password, a missing grant).
     */
    private static boolean explainsItself(Throwable failure) {
        return failure instanceof MissingRecordsException || failure instanceof AuthenticationException
            || failure instanceof AuthorizationException;
    }

    /** The config file's properties with the overrides applied. */
    static Map<String, String> parse(String[] args) throws IOException {
        if (args.length == 0) {
            throw new IllegalArgumentException("missing the config file");
        }
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(Paths.get(args[0]), StandardCharsets.UTF_8)) {
            props.load(in);
        }
        Map<String, String> settings = new HashMap<>();
        props.stringPropertyNames().forEach(k -> settings.put(k, props.getProperty(k).trim()));
        for (int i = 1; i < args.length; i++) {
            if (!args[i].equals("--override") || i + 1 == args.length) {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "' (use --override key=value)");
            }
            String kv = args[++i];
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("bad override '" + kv + "' (use key=value)");
            }
            settings.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        return settings;
    }
}
