package io.tributary.benchmarks.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A miniature run, so the benchmark keeps working as the log evolves. Its numbers mean nothing. */
class StorageBenchmarkTest {

    @TempDir
    Path dir;

    @Test
    void aTinyRunMeasuresEveryPhaseAndCleansUp() throws Exception {
        StorageOptions options = StorageOptions.parse(new String[] {"--large-gib=0.01", "--window-mib=1",
                "--rounds=1", "--many-segments=20", "--random-reads=200"}, dir.resolve("logs"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        String result = StorageBenchmark.run(options, new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertThat(result).matches("RESULT append_mib_s=[0-9.]+ read_mib_s=[0-9.]+ append_large_over_empty=[0-9.]+ "
                + "append_cpu_large_over_empty=[0-9.]+ random_read_many_over_few=[0-9.]+");
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("random reads: 20 segments and 10 segments")
                .contains("148 records of 100 bytes")
                .contains("(pread floor): many / few = ")
                .contains("(mapped floor): many / few = ");
        assertThat(dir.resolve("logs")).doesNotExist();
    }

    @Test
    void rejectsUnknownOptions() {
        assertThatThrownBy(() -> StorageOptions.parse(new String[] {"--fast"}, dir))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--fast");
    }
}
