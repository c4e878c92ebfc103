package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * One broker in its own child JVM, started from this JVM's class path with a fixed heap, its
 * output going to a log file. Both brokers of a run get the same JVM options (plus the same
 * {@link ExtraBrokerJvmOptions}, for profiling).
 */
public final class BrokerProcess implements Broker, AutoCloseable {
    private static final long POLL_MILLIS = 100;

    private final String name;
    private final Process process;
    private final Path logFile;
    private final ChildProcesses children;
    private final ProcStat procStat;
    private final BrokerLaunch launch;
    private volatile String bootstrapServers;

    private BrokerProcess(String name, BrokerLaunch launch, Process process, Path logFile, ChildProcesses children,
                          ProcStat procStat) {
        this.name = name;
        this.launch = launch;
        this.process = process;
        this.logFile = logFile;
        this.children = children;
        this.procStat = procStat;
    }

    /** Starts the child JVM; call {@link #awaitReady} before using it. */
    public static BrokerProcess start(String name, BrokerLaunch launch, String heap, Path workDir,
                                      ChildProcesses children, ProcStat procStat) throws IOException {
        Files.createDirectories(workDir);
        Path logFile = workDir.resolve("broker.log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + heap, "-Xmx" + heap,
                "-Djava.io.tmpdir=" + workDir,
                "-Dzookeeper.admin.enableServer=false",
                "-Dlog4j.configuration=" + HarnessMain.LOG4J_CONFIGURATION));
        command.addAll(ExtraBrokerJvmOptions.from(System.getenv()));
        command.addAll(List.of("-cp", absoluteClassPath(), OrphanGuard.class.getName(), launch.mainClass()));
        command.addAll(launch.arguments());
        Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(logFile.toFile())
                .start();
        children.add(process);
        return new BrokerProcess(name, launch, process, logFile, children, procStat);
    }

    /** This JVM's class path with absolute entries, since the child runs in its own directory. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * Blocks until the broker's address is known and it lists itself in a DescribeCluster answer;
     * fails with the tail of its log if it exits or the timeout passes first.
     */
    public void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<String> address = launch.bootstrapServers().get();
        while (address.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not report its address within " + timeout
                        + "; end of " + logFile + ":\n" + logTail());
            }
            pauseWhileAlive();
            address = launch.bootstrapServers().get();
        }
        bootstrapServers = address.get();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Exception lastError = null;
            while (true) {
                try {
                    if (!admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException notYet) {
                    lastError = notYet;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for " + name, e);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(name + " did not answer DescribeCluster within " + timeout
                            + "; end of " + logFile + ":\n" + logTail(), lastError);
                }
                pauseWhileAlive();
            }
        }
    }

    private void pauseWhileAlive() {
        try {
            if (process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " while starting; end of " + logFile + ":\n" + logTail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + name, e);
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Where the broker's standard output and error go. */
    public Path logFile() {
        return logFile;
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public double cpuSeconds() {
        return procStat.cpuSeconds(process.pid());
    }

    /** SIGTERM, then SIGKILL if it has not stopped within the grace period. */
    @Override
    public void close() {
        children.stop(process);
    }
}
