package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class NewestCommittedFilesTest {
    @TempDir
    java.nio.file.Path dir;

    private FileSystem fs;
    private DatasetLayout layout;

    @BeforeEach
    void open() throws IOException {
        fs = FileSystem.getLocal(new Configuration());
        layout = DatasetLayout.utc(new Path(dir.toUri()));
    }

    @Test
    void findsTheLastOffsetPerPartitionInTheNewestBuckets() throws IOException {
        touch("2026-11-29T22:00:00Z", DataFileName.of("t", 0, 0, 99));
        touch("2026-11-30T09:00:00Z", DataFileName.of("t", 0, 100, 199));
        touch("2026-11-30T10:00:00Z", DataFileName.of("t", 0, 200, 249));
        touch("2026-11-30T10:00:00Z", DataFileName.of("t", 1, 0, 7));
        fs.create(new Path(layout.bucketDir("t", ts("2026-11-30T10:00:00Z")), "junk.txt")).close();
        fs.create(new Path(layout.tempDir("t", 1), "x.parquet.tmp")).close();

        assertThat(new NewestCommittedFiles(fs, layout, 3).lastOffsets("t")).containsEntry(0, 249L).containsEntry(1, 7L).hasSize(2);
    }

    @Test
    void looksOnlyAtTheNewestBucketsAcrossDays() throws IOException {
        touch("2026-11-29T22:00:00Z", DataFileName.of("t", 2, 0, 5));
        touch("2026-11-29T23:00:00Z", DataFileName.of("t", 3, 0, 5));
        touch("2026-11-30T00:00:00Z", DataFileName.of("t", 0, 0, 5));

        NewestCommittedFiles newest = new NewestCommittedFiles(fs, layout, 2);
        assertThat(newest.newestBuckets("t")).extracting(Path::toString)
            .containsExactly(layout.bucketDir("t", ts("2026-11-30T00:00:00Z")).toString(),
                layout.bucketDir("t", ts("2026-11-29T23:00:00Z")).toString());
        assertThat(newest.lastOffsets("t")).containsOnlyKeys(0, 3);
    }

    @Test
    void unknownTopicHasNoFiles() throws IOException {
        assertThat(new NewestCommittedFiles(fs, layout, 5).lastOffsets("none")).isEmpty();
    }

    private void touch(String time, DataFileName name) throws IOException {
        fs.create(layout.dataFile(ts(time), name)).close();
    }

    private static long ts(String time) {
        return Instant.parse(time).toEpochMilli();
    }
}
