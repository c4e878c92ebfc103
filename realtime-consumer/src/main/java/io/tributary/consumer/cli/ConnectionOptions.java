package io.tributary.consumer.cli;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** Options every subcommand that talks to a broker takes, as Kafka's own tools spell them. */
public final class ConnectionOptions {
    static final String DEFAULT_BOOTSTRAP = "127.0.0.1:9092";

    @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT", defaultValue = DEFAULT_BOOTSTRAP,
            description = "Broker(s) to connect to (default: ${DEFAULT-VALUE}).")
    String bootstrapServer;

    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Properties file of kafka-clients settings for every client the command creates "
                    + "(security.protocol, ssl.*, sasl.*, timeouts), as in Kafka's tools.")
    Path commandConfig;

    @Option(names = "--verbose", description = "Print the stack trace of an error, and the client libraries' log.")
    boolean verbose;

    String bootstrapServer() {
        return bootstrapServer;
    }

    /** The settings of {@code --command-config}, or none without it. */
    Map<String, Object> commandConfig() {
        if (commandConfig == null) {
            return Map.of();
        }
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(commandConfig, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (NoSuchFileException e) {
            throw new CliException("no --command-config file " + commandConfig);
        } catch (IOException e) {
            throw new CliException("cannot read --command-config " + commandConfig + ": " + e.getMessage());
        }
        Map<String, Object> settings = new HashMap<>();
        properties.stringPropertyNames().forEach(key -> settings.put(key, properties.getProperty(key).strip()));
        return settings;
    }
}
