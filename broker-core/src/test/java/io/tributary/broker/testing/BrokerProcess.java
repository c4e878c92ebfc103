package io.tributary.broker.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.TributaryServer;
import io.tributary.testkit.FreePorts;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A broker in its own JVM ({@link TributaryServer}, as bin/tributary-server runs it), so tests can
 * SIGTERM or SIGKILL it and start it again on the same ports and data. Its output goes to
 * {@code dir/broker.log}.
 */
public final class BrokerProcess implements AutoCloseable {
    private static final Pattern HTTP_LINE = Pattern.compile("status page GET / on \\[/?([^,\\]]+)");
    private static final long START_TIMEOUT_SECONDS = 60;

    private final Path propertiesFile;
    private final Path logConfig;
    private final Path output;
    private final int port;
    private final List<String> jvmOptions;
    private Process process;

    private BrokerProcess(Path propertiesFile, Path logConfig, Path output, int port, List<String> jvmOptions) {
        this.propertiesFile = propertiesFile;
        this.logConfig = logConfig;
        this.output = output;
        this.port = port;
        this.jvmOptions = jvmOptions;
    }

    /**
     * Starts a broker with fixed free ports (so a restart finds them again) and data under {@code dir}. A
     * {@code listeners} override adds listeners next to the PLAINTEXT one on the fixed port.
     */
    public static BrokerProcess start(Path dir, Map<String, String> overrides) throws IOException {
        return start(dir, overrides, List.of());
    }

    /** {@link #start(Path, Map)} with options for the broker's JVM ({@code TRIBUTARY_JVM_OPTS}, such as a JAAS file). */
    public static BrokerProcess start(Path dir, Map<String, String> overrides, List<String> jvmOptions) throws IOException {
        int port = FreePorts.next();
        Map<String, String> settings = new HashMap<>(TestBroker.properties(dir, overrides));
        settings.putIfAbsent(BrokerConfig.ZOOKEEPER_EMBEDDED_PORT, Integer.toString(FreePorts.next()));
        String plaintext = "PLAINTEXT://127.0.0.1:" + port;
        settings.put(BrokerConfig.LISTENERS, overrides.containsKey(BrokerConfig.LISTENERS)
                ? plaintext + "," + overrides.get(BrokerConfig.LISTENERS) : plaintext);
        Properties props = new Properties();
        props.putAll(settings);
        Path propertiesFile = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(propertiesFile)) {
            props.store(out, "test broker");
        }
        Path logConfig = dir.resolve("log4j.properties");
        Files.writeString(logConfig, String.join("\n",
                "log4j.rootLogger=WARN, stderr",
                "log4j.appender.stderr=org.apache.log4j.ConsoleAppender",
                "log4j.appender.stderr.Target=System.err",
                "log4j.appender.stderr.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.stderr.layout.ConversionPattern=%d{HH:mm:ss.SSS} %-5p [%t] %c{1}: %m%n",
                "log4j.logger.io.tributary.broker.Server=INFO",
                "log4j.logger.io.tributary.broker.controller=INFO",
                "log4j.logger.io.tributary.broker.cluster.BrokerRegistry=INFO",
                "log4j.logger.io.tributary.broker.replica=INFO", ""));
        BrokerProcess broker = new BrokerProcess(propertiesFile, logConfig, dir.resolve("broker.log"), port, jvmOptions);
        broker.launch();
        return broker;
    }

    private void launch() throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Dzookeeper.admin.enableServer=false",
                "-Dlog4j.configuration=" + logConfig.toUri()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), TributaryServer.class.getName(), propertiesFile.toString()));
        long linesBefore = Files.exists(output) ? Files.readAllLines(output).size() : 0;
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
        try {
            Awaitility.await("broker start-up, see " + output).atMost(Duration.ofSeconds(START_TIMEOUT_SECONDS))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> !process.isAlive() || Files.readAllLines(output).stream().skip(linesBefore)
                            .anyMatch(line -> line.contains("listening on")));
        } catch (ConditionTimeoutException e) {
            process.destroyForcibly();
            throw e;
        }
        if (!process.isAlive()) {
            throw new IllegalStateException("broker exited with " + process.exitValue() + " during start-up; see " + output);
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /**
     * http://host:port of the first {@code http.listeners} address, from the broker's start-up line (port 0 binds a free
     * port, which only the broker knows).
     */
    public String httpUrl() throws IOException {
        for (String line : Files.readAllLines(output)) {
            Matcher serving = HTTP_LINE.matcher(line);
            if (serving.find()) {
                return "http://" + serving.group(1);
            }
        }
        throw new IllegalStateException("no HTTP endpoint in " + output + " (is http.listeners set?)");
    }

    public long pid() {
        return process.pid();
    }

    /** Whether its JVM is running (not killed, terminated or exited). */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM, then waits for the clean shutdown. @return the exit code */
    public int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("broker did not stop within 60 s after SIGTERM; see " + output);
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown at all. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts the broker again on the same settings, ports and data. */
    public void restart() throws IOException {
        if (process.isAlive()) {
            throw new IllegalStateException("stop the broker before restarting it");
        }
        launch();
    }

    public Path output() {
        return output;
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
