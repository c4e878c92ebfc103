package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetLayoutTest {
    private static final long TS = Instant.parse("2026-11-30T23:30:00Z").toEpochMilli();

    @Test
    void bucketsByUtcByDefault() {
        DatasetLayout layout = DatasetLayout.utc(new Path("hdfs://nn:8020/data"));
        assertThat(layout.dataFile(TS, DataFileName.of("t", 3, 10, 20)))
            .hasToString("hdfs://nn:8020/data/t/dt=2026-11-30/hr=23/t+3+10+20.parquet");
    }

    @Test
    void bucketsInTheConfiguredZone() {
        DatasetLayout layout = new DatasetLayout(new Path("/data"), ZoneId.of("Europe/Berlin"));
        assertThat(layout.bucketName(TS)).isEqualTo("dt=2026-12-01/hr=00");
    }

    @Test
    void recordsWithoutTimestampLandInTheEpochBucket() {
        assertThat(DatasetLayout.utc(new Path("/d")).bucketName(-1)).isEqualTo("dt=1969-12-31/hr=23");
    }

    @Test
    void metadataIsHiddenFromReaders() {
        DatasetLayout layout = DatasetLayout.utc(new Path("/data"));
        assertThat(layout.ledgerDir("t")).hasToString("/data/_tributary/ledger/t");
        assertThat(layout.legacyLedgerFile("t")).hasToString("/data/_tributary/t.ledger");
        assertThat(layout.tempDir("t", 4)).hasToString("/data/_tributary/tmp/t/4");
        assertThat(layout.newTempFile("t", 4).getParent()).isEqualTo(layout.tempDir("t", 4));
        assertThat(layout.newTempFile("t", 4).getName()).endsWith(".parquet.tmp");
        assertThat(layout.newTempFile("t", 4)).isNotEqualTo(layout.newTempFile("t", 4));
        assertThat(layout.jobDir("t", "job_1_0001")).hasToString("/data/_tributary/jobs/t/job_1_0001");
    }

    @Test
    void rejectsTopicsThatWouldEscapeTheRoot() {
        DatasetLayout layout = DatasetLayout.utc(new Path("/data"));
        assertThatThrownBy(() -> layout.topicDir("..")).hasMessageContaining("illegal topic");
        assertThatThrownBy(() -> layout.ledgerDir("a/b")).hasMessageContaining("illegal topic");
    }
}
