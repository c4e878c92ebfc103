package io.tributary.consumer.cli;

import org.apache.kafka.common.utils.Time;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the CLI in-process, as {@code bin/tributary} would, and captures what it prints. */
final class CliRunner {
    /** Client timeouts short enough that error paths answer within seconds. */
    private static final Map<String, Object> SHORT_TIMEOUTS = Map.of(
            "default.api.timeout.ms", 10_000, "request.timeout.ms", 5_000);

    private final String bootstrapServer;
    private final boolean stderrIsTerminal;
    private final Time time;
    private final Map<String, Object> clientOverrides;

    CliRunner(String bootstrapServer) {
        this(bootstrapServer, false, Time.SYSTEM, SHORT_TIMEOUTS);
    }

    /** For a broker that is not there: give up after {@code timeoutMs}. */
    static CliRunner unreachable(String bootstrapServer, int timeoutMs) {
        return new CliRunner(bootstrapServer, false, Time.SYSTEM,
                Map.of("default.api.timeout.ms", timeoutMs, "request.timeout.ms", timeoutMs));
    }

    CliRunner(String bootstrapServer, boolean stderrIsTerminal, Time time, Map<String, Object> clientOverrides) {
        this.bootstrapServer = bootstrapServer;
        this.stderrIsTerminal = stderrIsTerminal;
        this.time = time;
        this.clientOverrides = clientOverrides;
    }

    /** Asserts the command failed (exit 1) with one line on stderr, {@code tributary: ...} containing {@code expected}. */
    static void assertOneLineError(Result result, String expected) {
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(1);
        assertThat(result.err().lines()).as(result.toString()).singleElement().asString()
                .startsWith("tributary: ").contains(expected);
    }

    record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs {@code args} plus {@code --bootstrap-server <broker>}, with empty stdin. */
    Result run(String... args) {
        return runWithInput("", args);
    }

    /** Runs {@code args} plus {@code --bootstrap-server <broker>}, feeding {@code stdin}. */
    Result runWithInput(String stdin, String... args) {
        String[] withBootstrap = Arrays.copyOf(args, args.length + 2);
        withBootstrap[args.length] = "--bootstrap-server";
        withBootstrap[args.length + 1] = bootstrapServer;
        return runExactly(stdin, withBootstrap);
    }

    /** Runs exactly {@code args}. */
    Result runExactly(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliContext context = new CliContext(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out, true), new PrintWriter(err, true), stderrIsTerminal, clientOverrides, time);
        int exitCode = TributaryCli.commandLine(context).execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }
}
