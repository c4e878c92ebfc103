package io.tributary.broker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/tributary-server <server.properties> [--override key=value]...}: runs one broker in
 * the foreground until SIGTERM (or Ctrl-C), which shuts it down cleanly.
 */
public final class TributaryServer {
    private static final String USAGE = "usage: tributary-server <server.properties> [--override key=value]...";

    private TributaryServer() {
    }

    public static void main(String[] args) throws Exception {
        Properties props;
        try {
            props = properties(args);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        Server server;
        try {
            server = Server.start(new BrokerConfig(props), Time.SYSTEM);
        } catch (ConfigException e) {
            System.err.println("invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        } catch (Exception e) {
            LoggerFactory.getLogger(TributaryServer.class).error("start-up failed", e);
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "tributary-shutdown"));
        stopped.await();
    }

    /** The properties file with the {@code --override}s applied. */
    static Properties properties(String[] args) throws IOException {
        if (args.length == 0) {
            throw new IllegalArgumentException("no properties file given");
        }
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            props.load(in);
        }
        for (int i = 1; i < args.length; i++) {
            if (!args[i].equals("--override") || i + 1 == args.length) {
                throw new IllegalArgumentException("unexpected argument: " + args[i]);
            }
            String override = args[++i];
            int eq = override.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--override needs key=value, got: " + override);
            }
            props.setProperty(override.substring(0, eq).trim(), override.substring(eq + 1).trim());
        }
        return props;
    }
}
