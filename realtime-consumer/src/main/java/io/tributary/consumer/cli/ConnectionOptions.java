package io.tributary.consumer.cli;

import picocli.CommandLine.Option;

/** Options every subcommand takes, as Kafka's own tools spell them. */
public final class ConnectionOptions {
    static final String DEFAULT_BOOTSTRAP = "127.0.0.1:9092";

    @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT", defaultValue = DEFAULT_BOOTSTRAP,
            description = "Broker(s) to connect to (default: ${DEFAULT-VALUE}).")
    String bootstrapServer;

    @Option(names = "--verbose", description = "Print the stack trace of an error, and the client libraries' log.")
    boolean verbose;

    String bootstrapServer() {
        return bootstrapServer;
    }
}
