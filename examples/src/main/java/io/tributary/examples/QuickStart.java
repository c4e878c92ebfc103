package io.tributary.examples;

import io.tributary.examples.pageviews.PageViewPipeline;
import io.tributary.examples.pageviews.PageViewReport;
import io.tributary.examples.serverlogs.ServerLogPipeline;
import io.tributary.examples.serverlogs.ServerLogReport;
import org.apache.kafka.common.utils.Time;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * {@code bin/tributary-quickstart}: the whole pipeline on embedded defaults, in one JVM. An
 * embedded ZooKeeper and one broker; a steady stream of page views counted live by a
 * realtime-consumer group and streamed into Parquet by the hdfs-sink; a batch of server-log lines
 * loaded into the same dataset by the MapReduce loader and summarized by a second job; then a
 * summary whose counts must agree, read back from the Parquet files.
 */
@Command(name = "tributary-quickstart", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Runs broker, live consumer, sink and loader on embedded defaults and checks that their counts agree.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the counts agree", "1:they do not, or a stage failed", "2:bad usage or data directory"})
public final class QuickStart implements Callable<Integer> {
    @Option(names = "--keep-running", description = "Leave the broker up after the summary, for the CLI; Ctrl-C stops it.")
    boolean keepRunning;

    @Option(names = "--data-dir", defaultValue = "tributary-data", paramLabel = "DIR",
        description = "Where everything is written, emptied first (default: ./${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--port", defaultValue = "9092", description = "Broker port on 127.0.0.1; 0 picks a free one (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--seconds", defaultValue = "15", description = "How long page views stream (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "1000", description = "Page views per second (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--log-lines", defaultValue = "20000", description = "Server-log lines to batch-load (default ${DEFAULT-VALUE}).")
    int logLines;

    @Option(names = "--verbose", description = "Show the INFO log on stderr too (it always goes to DIR/quickstart.log).")
    boolean verbose;

    private final Time time;
    private final PrintStream out;

    QuickStart(Time time, PrintStream out) {
        this.time = time;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new QuickStart(Time.SYSTEM, System.out)).execute(args));
    }

    /** Parses command-line arguments into a quick start that is ready to {@link #run}. */
    static QuickStart parse(Time time, PrintStream out, String... args) {
        QuickStart quickStart = new QuickStart(time, out);
        new CommandLine(quickStart).parseArgs(args);
        return quickStart;
    }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        validate();
        QuickStartDirectory dir;
        try {
            dir = QuickStartDirectory.prepare(dataDir);
        } catch (IllegalStateException e) {
            System.err.println("tributary-quickstart: " + e.getMessage());
            return 2;
        }
        LogFile.redirect(dir.log(), verbose);
        try {
            return run(dir).countsAgree() ? 0 : 1;
        } catch (BindException e) {
            System.err.println("tributary-quickstart: port " + port + " is in use (is a broker already running?); "
                + "stop it or pass --port 0 for a free port");
            return 2;
        } catch (Exception e) {
            System.err.println("tributary-quickstart: failed: " + e.getMessage() + " (full log: " + dir.log() + ")");
            return 1;
        }
    }

    /** Rejects settings that could only fail later, before anything starts (picocli prints it with the usage, exit 2). */
    private void validate() {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port must be 0..65535, got " + port);
        }
        requirePositive("--seconds", seconds);
        requirePositive("--rate", rate);
        requirePositive("--log-lines", logLines);
    }

    private void requirePositive(String option, int value) {
        if (value < 1) {
            throw new ParameterException(spec.commandLine(), option + " must be at least 1, got " + value);
        }
    }

    /** Runs the pipeline in {@code dir} (already prepared) and prints its progress and the summary. */
    QuickStartSummary run(QuickStartDirectory dir) throws Exception {
        Consumer<String> console = consoleLines();
        long startMs = time.milliseconds();
        console.accept("starting an embedded ZooKeeper and a Tributary broker (data in " + dir.root() + ")");
        try (LocalBroker broker = LocalBroker.start(dir.broker(), port)) {
            String bootstrap = broker.bootstrapServers();
            console.accept("broker listening on " + bootstrap);
            PageViewReport pageViews = new PageViewPipeline(new PageViewPipeline.Settings(Duration.ofSeconds(seconds),
                rate, 5000, "quickstart-live-counts", "quickstart-sink"), time, console)
                .run(bootstrap, dir.warehouse(), dir.schemas());
            ServerLogReport serverLogs = new ServerLogPipeline(new ServerLogPipeline.Settings(logLines, 6, 50), time, console)
                .run(bootstrap, LocalHadoop.path(dir.warehouse()), dir.schemas(), LocalHadoop.path(dir.errorsPerHost()),
                    LocalHadoop.conf(dir.hadoop()));
            QuickStartSummary summary = new QuickStartSummary(pageViews, serverLogs, dir.warehouse(), bootstrap,
                Duration.ofMillis(time.milliseconds() - startMs));
            summary.lines().forEach(console);
            console.accept("log:    " + dir.log());
            if (keepRunning) {
                awaitCtrlC(broker, console);
            }
            return summary;
        }
    }

    private void awaitCtrlC(LocalBroker broker, Consumer<String> console) throws InterruptedException {
        String bootstrap = broker.bootstrapServers();
        console.accept("");
        console.accept("The broker keeps running on " + bootstrap + " (Ctrl-C stops it). Try:");
        console.accept("  bin/tributary topics describe page-views --bootstrap-server " + bootstrap);
        console.accept("  bin/tributary consume page-views --bootstrap-server " + bootstrap + " --from-beginning --max-messages 5");
        console.accept("  bin/tributary groups describe quickstart-live-counts --bootstrap-server " + bootstrap);
        CountDownLatch stopped = new CountDownLatch(1);
        // The JVM exits once the hooks are done, so the hook itself shuts the broker down cleanly.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "quickstart-stop"));
        stopped.await();
    }

    /**
     * Lines for the console. On a terminal each line first clears the line it lands on, where the
     * sink keeps rewriting its one-line status.
     */
    private Consumer<String> consoleLines() {
        String clear = System.console() != null && out == System.out ? "\r\033[2K" : "";
        return line -> out.println(clear + line);
    }
}
