package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicIdentityTest {
    private static final LedgerState LOADED = new LedgerState("t", Map.of(0, 100L));
    private static final LedgerState NOTHING_LOADED = LedgerState.empty("t");

    @TempDir
    java.nio.file.Path dir;

    private FileSystem fs() throws IOException {
        return FileSystem.getLocal(new Configuration());
    }

    private DatasetLayout layout() {
        return DatasetLayout.utc(new Path(dir.toUri()));
    }

    @Test
    void theFirstIdIsRecordedAndTheSameTopicPassesAgain() throws IOException {
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-1", NOTHING_LOADED);
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-1", LOADED);
        assertThat(fs().exists(new Path(layout().ledgerDir("t"), TopicIdentity.FILE_NAME))).isTrue();
    }

    @Test
    void aDatasetFromBeforeTheCheckTakesTheIdOfTheTopicItIsWrittenFrom() throws IOException {
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-1", LOADED);
        assertThatThrownBy(() -> TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-2", LOADED))
            .isInstanceOf(TopicRecreatedException.class);
    }

    @Test
    void anotherIdOfATopicWithOffsetsLoadedIsRefusedNamingBoth() throws IOException {
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-1", NOTHING_LOADED);
        assertThatThrownBy(() -> TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-2", LOADED))
            .isInstanceOf(TopicRecreatedException.class)
            .hasMessageContaining("id-1").hasMessageContaining("id-2").hasMessageContaining("deleted and created again");
    }

    @Test
    void anIdRecordedBeforeAnythingWasLoadedIsReplaced() throws IOException {
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-1", NOTHING_LOADED); // e.g. a dry run, then the topic was re-created
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-2", NOTHING_LOADED);
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-2", LOADED);
    }

    @Test
    void aCheckAloneRecordsNothingButRefusesAsWell() throws IOException {
        assertThat(TopicIdentity.check(fs(), layout(), "t", "id-1", LOADED)).isFalse();
        assertThat(fs().exists(layout().ledgerDir("t"))).as("anything written").isFalse();
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-1", LOADED);
        assertThat(TopicIdentity.check(fs(), layout(), "t", "id-1", LOADED)).isTrue();
        assertThatThrownBy(() -> TopicIdentity.check(fs(), layout(), "t", "id-2", LOADED))
            .isInstanceOf(TopicRecreatedException.class);
    }

    @Test
    void theIdFileIsNoLedgerVersionAndSurvivesItsPrunes() throws IOException {
        TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-1", NOTHING_LOADED);
        OffsetLedger ledger = OffsetLedger.open(layout(), "t", new Configuration());
        for (long next = 1; next <= 2 * OffsetLedger.KEPT_VERSIONS + 5; next++) {
            Ledgers.advanceNow(ledger, Map.of(0, next));
        }
        assertThat(ledger.read().nextOffsets()).isEqualTo(Map.of(0, 2L * OffsetLedger.KEPT_VERSIONS + 5));
        assertThatThrownBy(() -> TopicIdentity.checkAndRecord(fs(), layout(), "t", "id-2", ledger.read()))
            .isInstanceOf(TopicRecreatedException.class);
    }
}
