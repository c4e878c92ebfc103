package io.tributary.examples;

import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;

/** The options every example shares: which broker, which dataset; and the verdict they end with. */
public final class ExampleTarget {
    @Option(names = "--bootstrap-server", defaultValue = "127.0.0.1:9092", description = "Broker (default ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--output", defaultValue = "tributary-data/warehouse", description = "Dataset directory (default ./${DEFAULT-VALUE}).")
    Path warehouse;

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Path warehouse() {
        return warehouse.toAbsolutePath();
    }

    /** Next to the dataset: schema files, scratch space, reports. */
    public Path workDir(String name) {
        return warehouse().getParent().resolve(name);
    }

    /**
     * Prints whether the dataset holds every record of the topic exactly once.
     *
     * @return the exit code: 0 if it does
     */
    public static int verdict(DatasetScan parquet, long recordsInTopic, PrintStream out) {
        boolean complete = parquet.rows() == recordsInTopic && parquet.distinctOffsets() == parquet.rows();
        out.println(complete ? "the Parquet table holds every record of the topic once"
            : "the Parquet table does NOT hold every record of the topic exactly once");
        return complete ? 0 : 1;
    }
}
