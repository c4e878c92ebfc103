package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import io.tributary.testkit.FileSizeLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code .txnindex} on a full disk: a child JVM, started under a file size limit of 100 bytes ({@code prlimit}),
 * indexes five aborted transactions of 34 bytes each, so the third write stops part-way. Every entry stays in the
 * index, the flush fails while the file lacks some, and once the limit is lifted the file holds every entry, whole
 * and in order.
 */
class TransactionIndexWriteFailureTest {
    private static final String PREFIX = "child: ";

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void entriesTheFileCannotTakeStayIndexedAndAreWrittenOnceItCan(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("00000000000000000000.txnindex");
        Process child = new ProcessBuilder("prlimit", "--fsize=100:unlimited", "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:-UsePerfData",
                "-cp", System.getProperty("java.class.path"), Child.class.getName(), file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
             Writer in = child.outputWriter(StandardCharsets.UTF_8)) {
            assertThat(nextLine(out)).isEqualTo("indexed 5, flush failed");

            FileSizeLimit.lift(child.pid());
            in.write("go\n");
            in.flush();
            assertThat(nextLine(out)).isEqualTo("indexed 6, flushed");
            assertThat(child.waitFor()).isZero();
        } finally {
            child.destroyForcibly();
        }
        assertThat(new TransactionIndex(file).entries()).containsExactlyElementsOf(txns(6));
    }

    /** The child's next line of its own; the JVM or a logger may print others. */
    private static String nextLine(BufferedReader out) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(PREFIX)) {
                return line.substring(PREFIX.length());
            }
        }
        throw new IOException("the child ended without saying more");
    }

    private static List<AbortedTxn> txns(int count) {
        return IntStream.range(0, count).mapToObj(i -> new AbortedTxn(1000 + i, 10L * i, 10L * i + 5, 10L * i)).toList();
    }

    /** Runs under the file size limit; indexes, flushes, waits for a line on stdin, indexes one more. */
    static final class Child {
        public static void main(String[] args) throws Exception {
            TransactionIndex index = new TransactionIndex(Path.of(args[0]));
            List<AbortedTxn> txns = txns(6);
            for (AbortedTxn txn : txns.subList(0, 5)) {
                index.append(txn);
            }
            System.out.println(PREFIX + "indexed " + index.entries().size() + ", " + flush(index));
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            index.append(txns.get(5));
            System.out.println(PREFIX + "indexed " + index.entries().size() + ", " + flush(index));
            index.close();
        }

        private static String flush(TransactionIndex index) {
            try {
                index.flush();
                return "flushed";
            } catch (IOException e) {
                return "flush failed";
            }
        }
    }
}
