package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProcStatTest {
    /** A real line of a JVM (utime 1520, stime 333), shortened after field 20. */
    private static final String JAVA_LINE =
            "4242 (java) S 4200 4242 4200 0 -1 1077936128 51220 0 12 0 1520 333 0 0 20 0 58 0 891234";

    @Test
    void sumsUserAndSystemTicks() {
        assertThat(ProcStat.cpuTicks(JAVA_LINE)).isEqualTo(1853);
    }

    @Test
    void countsFieldsFromTheLastParenthesisSoThatANameWithSpacesAndParenthesesParses() {
        String line = "77 (my (odd) name) R 1 77 77 0 -1 4194304 10 0 0 0 25 7 0 0 20 0 1 0 100";
        assertThat(ProcStat.cpuTicks(line)).isEqualTo(32);
    }

    @Test
    void rejectsLinesThatAreNotProcStat() {
        assertThatThrownBy(() -> ProcStat.cpuTicks("no parenthesis here")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.cpuTicks("1 (java) S 0 1")).hasMessageContaining("too few fields");
        assertThatThrownBy(() -> ProcStat.cpuTicks(JAVA_LINE.replace(" 1520 ", " x ")))
                .hasMessageContaining("not numbers");
    }

    @Test
    void convertsTicksToSecondsWithTheGivenTickRate(@TempDir Path proc) throws IOException {
        Files.createDirectories(proc.resolve("4242"));
        Files.writeString(proc.resolve("4242").resolve("stat"), JAVA_LINE + "\n");
        assertThat(new ProcStat(proc, 100).cpuSeconds(4242)).isEqualTo(18.53);
        assertThat(new ProcStat(proc, 1000).cpuSeconds(4242)).isEqualTo(1.853);
    }

    @Test
    void aMissingProcessIsAClearError(@TempDir Path proc) {
        assertThatThrownBy(() -> new ProcStat(proc, 100).cpuSeconds(99))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("process 99");
    }

    @Test
    void readsThisJvmsOwnCpuTimeFromTheRealProc() {
        double seconds = ProcStat.forThisMachine().cpuSeconds(ProcessHandle.current().pid());
        assertThat(seconds).isPositive();
    }
}
