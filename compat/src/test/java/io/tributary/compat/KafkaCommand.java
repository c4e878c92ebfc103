package io.tributary.compat;

import org.apache.kafka.common.utils.internals.Exit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One of Kafka's admin tools (a {@code kafka-*.sh} main class of kafka-tools 4.4) run in this JVM, as its script runs
 * it in its own, and as Kafka's own tests run them: what it prints on standard output and error is captured, and its
 * call to {@code Exit.exit} ends the run with that code instead of ending the JVM. A child JVM per command would
 * cost a second or two each; the tools are written for this (they exit only through {@link Exit}).
 *
 * <p>Runs one command at a time: standard output and the exit procedure belong to the whole JVM.
 */
final class KafkaCommand {
    private KafkaCommand() {
    }

    /** What a finished command printed, and its exit code (0 when it returned without calling exit). */
    record Result(int exitCode, String out, String err) {
    }

    /** The tool's way out, thrown by the exit procedure so that {@code main} unwinds. */
    private static final class ToolExit extends RuntimeException {
        ToolExit(int code) {
            super("exit " + code, null, false, false);
        }
    }

    /** Runs {@code mainClass.main(args)}. */
    static synchronized Result run(Class<?> mainClass, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // The first exit counts: a tool that catches everything may turn an unwinding exit(0) into an exit(1).
        AtomicReference<Integer> exitCode = new AtomicReference<>();
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        Exit.setExitProcedure((code, message) -> {
            exitCode.compareAndSet(null, code);
            throw new ToolExit(code);
        });
        try {
            mainClass.getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            if (!(e.getCause() instanceof ToolExit)) {
                throw e;
            }
        } finally {
            Exit.resetExitProcedure();
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        Integer code = exitCode.get();
        return new Result(code == null ? 0 : code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** As {@link #run}, and fails unless the tool exits 0; returns its standard output. */
    static String succeed(Class<?> mainClass, String... args) throws Exception {
        Result result = run(mainClass, args);
        assertThat(result.exitCode()).as("%s %s%nout: %s%nerr: %s", mainClass.getSimpleName(), String.join(" ", args),
                result.out(), result.err()).isZero();
        return result.out();
    }
}
