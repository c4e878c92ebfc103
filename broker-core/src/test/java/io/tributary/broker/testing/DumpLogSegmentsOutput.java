package io.tributary.broker.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.DumpLogSegments;

/**
 * Kafka 4.4's DumpLogSegments run in the test's JVM (a fraction of a second, where {@link KafkaTool} starts a JVM):
 * what it prints about one segment with one decoder option. Its exit calls fail the test instead of ending the JVM.
 * Not thread-safe: it takes standard output for the run.
 */
public final class DumpLogSegmentsOutput {
    private DumpLogSegmentsOutput() {
    }

    /** @param decoder {@code --offsets-decoder}, {@code --transaction-log-decoder}, ... */
    public static String of(Path segment, String decoder) throws IOException {
        Exit.setExitProcedure((code, message) -> {
            throw new AssertionError("DumpLogSegments exited with " + code + ": " + message);
        });
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            DumpLogSegments.main(new String[] {"--files", segment.toString(), decoder});
        } finally {
            System.setOut(original);
            Exit.resetExitProcedure();
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
