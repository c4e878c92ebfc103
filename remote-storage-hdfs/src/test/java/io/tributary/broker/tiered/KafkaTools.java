package io.tributary.broker.tiered;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.DumpLogSegments;

/** Apache Kafka's tools, run in this JVM on the files of remote segment copies. */
final class KafkaTools {
    private KafkaTools() {
    }

    /** What Kafka's DumpLogSegments prints for {@code files} (with --deep-iteration); its exit is an AssertionError. */
    static String dumpLogSegments(Path... files) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        Exit.setExitProcedure((code, message) -> {
            throw new AssertionError("DumpLogSegments exited with " + code + ": " + message);
        });
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            DumpLogSegments.main(new String[] {"--files", String.join(",", Arrays.stream(files).map(Path::toString).toList()),
                "--deep-iteration"});
        } finally {
            System.setOut(original);
            Exit.resetExitProcedure();
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
