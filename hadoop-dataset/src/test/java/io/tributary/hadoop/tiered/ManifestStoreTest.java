package io.tributary.hadoop.tiered;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.List;
import java.util.Optional;

import static io.tributary.hadoop.tiered.PartitionManifestTest.segment;
import static org.assertj.core.api.Assertions.assertThat;

/** On the local filesystem, where the compare-and-set is a hard link (HDFS: a rename; MiniDFSCluster in the broker's ITs). */
class ManifestStoreTest {
    @TempDir
    java.nio.file.Path dir;

    private ManifestStore store;

    @BeforeEach
    void open() throws Exception {
        store = new ManifestStore(FileSystem.getLocal(new Configuration()), new TieredLayout(new Path(dir.toUri())));
    }

    private static PartitionManifest withSegments(PartitionManifest base, long end) {
        return new PartitionManifest("orders", 0, base.version(), 1, 0, end, List.of(segment(0, 0, end)), List.of());
    }

    @Test
    void eachCommitIsACompareAndSetOnTheVersionRead() throws Exception {
        PartitionManifest empty = store.read("orders", 0);
        assertThat(empty.version()).isZero();

        Optional<PartitionManifest> first = store.commit(empty, withSegments(empty, 100));
        Optional<PartitionManifest> rival = store.commit(empty, withSegments(empty, 50));

        assertThat(first).get().extracting(PartitionManifest::version).isEqualTo(1L);
        assertThat(rival).as("version 1 was taken").isEmpty();
        assertThat(store.read("orders", 0)).isEqualTo(first.get());
        assertThat(Files.readString(dir.resolve("orders-0/manifest/00000000000000000001"))).contains("end.offset=100");
    }

    @Test
    void readersFindTheNewestVersionAndOldVersionsArePruned() throws Exception {
        PartitionManifest current = store.read("orders", 0);
        for (int i = 1; i <= 25; i++) {
            current = store.commit(current, withSegments(current, 10L * i)).orElseThrow();
        }

        assertThat(store.read("orders", 0).endOffset()).isEqualTo(250);
        assertThat(Files.list(dir.resolve("orders-0/manifest")).count()).isBetween(10L, 15L);
        assertThat(dir.resolve("orders-0/manifest/00000000000000000001")).doesNotExist();
    }

    @Test
    void aWriterSoFarBehindThatItsNextNameWasPrunedDoesNotCommit() throws Exception {
        PartitionManifest stale = store.commit(store.read("orders", 0), withSegments(PartitionManifest.empty("orders", 0), 10))
            .orElseThrow();
        PartitionManifest current = stale;
        for (int i = 2; i <= 25; i++) {
            current = store.commit(current, withSegments(current, 10L * i)).orElseThrow();
        }

        assertThat(store.commit(stale, withSegments(stale, 999))).isEmpty();
        assertThat(dir.resolve("orders-0/manifest/00000000000000000002")).doesNotExist();
        assertThat(store.read("orders", 0).endOffset()).isEqualTo(250);
    }
}
