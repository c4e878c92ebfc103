package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OffsetLedgerTest {
    @TempDir
    java.nio.file.Path dir;

    private DatasetLayout layout;
    private OffsetLedger ledger;

    @BeforeEach
    void open() throws IOException {
        layout = DatasetLayout.utc(new Path(dir.toUri()));
        ledger = OffsetLedger.open(layout, "t", new Configuration());
    }

    @Test
    void emptyUntilFirstAdvance() throws IOException {
        assertThat(ledger.read()).isEqualTo(LedgerState.empty("t"));
    }

    @Test
    void advancesAndKeepsOtherPartitions() throws IOException {
        ledger.advance(Map.of(0, 10L, 1, 20L));
        LedgerState state = ledger.advance(Map.of(1, 25L, 2, 5L));
        assertThat(state.nextOffsets()).containsExactly(Map.entry(0, 10L), Map.entry(1, 25L), Map.entry(2, 5L));
        assertThat(OffsetLedger.open(layout, "t", new Configuration()).read()).isEqualTo(state);
    }

    @Test
    void refusesToMoveBackwardAndKeepsTheFile() throws IOException {
        ledger.advance(Map.of(0, 10L));
        assertThatThrownBy(() -> ledger.advance(Map.of(0, 9L)))
            .isInstanceOf(LedgerRegressionException.class)
            .hasMessageContaining("t-0 backward from 10 to 9");
        assertThat(ledger.read().nextOffset(0)).hasValue(10);
    }

    @Test
    void replacesTheFileWithoutLeavingTemps() throws IOException {
        for (long i = 1; i <= 5; i++) {
            ledger.advance(Map.of(0, i));
        }
        try (Stream<java.nio.file.Path> files = Files.list(dir.resolve("_tributary"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")))
                .containsExactly("t.ledger");
        }
        assertThat(Files.readString(dir.resolve("_tributary/t.ledger"))).contains("topic=t", "partition.0=5");
    }

    @Test
    void corruptLedgerIsAClearError() throws IOException {
        Files.createDirectories(dir.resolve("_tributary"));
        Files.writeString(dir.resolve("_tributary/t.ledger"), "topic=t\npartition.0=ten\n", StandardCharsets.UTF_8);
        assertThatThrownBy(ledger::read).hasMessageContaining("corrupt ledger").hasMessageContaining("partition.0=ten");
    }

    @Test
    void ledgerOfAnotherTopicIsRejected() throws IOException {
        Files.createDirectories(dir.resolve("_tributary"));
        Files.writeString(dir.resolve("_tributary/t.ledger"), "topic=u\npartition.0=1\n", StandardCharsets.UTF_8);
        assertThatThrownBy(ledger::read).hasMessageContaining("ledger of topic 'u'");
    }

    @Test
    void resumesAfterTheNewerOfLedgerAndCommittedFiles() {
        LedgerState state = new LedgerState("t", Map.of(0, 100L, 1, 50L));
        assertThat(state.resumeOffsets(Map.of(0, 80L, 1, 59L, 2, 9L)))
            .containsExactly(Map.entry(0, 100L), Map.entry(1, 60L), Map.entry(2, 10L));
    }
}
