package io.tributary.examples.serverlogs;

import io.tributary.examples.ExampleTarget;
import io.tributary.examples.LocalHadoop;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.utils.Time;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * {@code examples/run server-logs}: the server-logs pipeline against a running broker, with the
 * loader and the errors-per-host job on the local job runner.
 */
@Command(name = "server-logs", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Produces parsed log lines, batch-loads them into Parquet and counts errors per host with MapReduce.")
public final class ServerLogsExample implements Callable<Integer> {
    @Mixin
    ExampleTarget target;

    @Option(names = "--lines", defaultValue = "20000", description = "Log lines to produce (default ${DEFAULT-VALUE}).")
    int lines;

    @Option(names = "--hosts", defaultValue = "6", description = "Servers writing them (default ${DEFAULT-VALUE}).")
    int hosts;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ServerLogsExample()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path result = LocalHadoop.path(target.workDir("reports").resolve("errors-per-host-" + System.currentTimeMillis()));
        ServerLogReport report = new ServerLogPipeline(new ServerLogPipeline.Settings(lines, hosts, 50), Time.SYSTEM,
            System.out::println).run(target.bootstrapServers(), LocalHadoop.path(target.warehouse()),
            target.workDir("schemas"), result, LocalHadoop.conf(target.workDir("hadoop")));
        System.out.printf("produced %,d; the topic holds %,d, the Parquet table %,d rows in %d files%n",
            report.produced(), report.inTopic(), report.parquet().rows(), report.parquet().files());
        System.out.println("errors per host, as produced (this run): " + report.errorsSent());
        System.out.println("errors per host, by MapReduce (table):   " + report.errorsComputed() + " in " + result);
        return ExampleTarget.verdict(report.parquet(), report.inTopic(), System.out);
    }
}
