package io.tributary.sink;

import org.apache.kafka.common.config.ConfigException;
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
import java.util.Properties;

/**
 * {@code tributary-sink <config.properties> [--override key=value]...}: streams until SIGTERM or
 * Ctrl-C, then commits the open files and exits (143 / 130, as for any terminated JVM, after
 * logging {@value #STOPPED_CLEANLY}). Exit codes otherwise: 1 the sink failed (a bad record under
 * bad.record.policy=fail, or an unrecoverable error), 2 bad usage.
 */
public final class SinkMain {
    static final String STOPPED_CLEANLY = "stopped cleanly: open files committed";
    private static final Logger log = LoggerFactory.getLogger(SinkMain.class);

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
        Thread hook = new Thread(() -> {
            sink.stop();
            try {
                if (sink.awaitStopped(Duration.ofSeconds(60))) {
                    log.info(STOPPED_CLEANLY);
                } else {
                    log.error("did not stop within 60 s; open files are left for the next start to clean up");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tributary-sink-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            sink.run();
        } catch (RuntimeException e) {
            log.error("the sink failed: {}", e.getMessage(), e);
            System.exit(1);
        }
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
