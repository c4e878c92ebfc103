package io.tributary.examples;

import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad command lines end with a clear message and exit code 2, before anything starts or is deleted. */
class QuickStartTest {

    @Test
    void rejectsSettingsThatCouldOnlyFailLater(@TempDir Path work) {
        for (String[] args : new String[][] {{"--rate", "0"}, {"--seconds", "-1"}, {"--log-lines", "0"}, {"--port", "70000"}}) {
            Path data = work.resolve("data-" + args[0].substring(2));
            StringWriter err = new StringWriter();
            CommandLine cli = new CommandLine(new QuickStart(Time.SYSTEM, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8))).setErr(new PrintWriter(err));

            int exit = cli.execute(append(args, "--data-dir", data.toString()));

            assertThat(exit).as("exit code for %s", String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).contains(args[0] + " must be");
            assertThat(data).as("nothing created for %s", String.join(" ", args)).doesNotExist();
        }
    }

    @Test
    void unknownOptionsAreUsageErrors() {
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new QuickStart(Time.SYSTEM, System.out)).setErr(new PrintWriter(err)).execute("--keep-runing");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option: '--keep-runing'");
    }

    private static String[] append(String[] args, String... more) {
        String[] all = new String[args.length + more.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }
}
