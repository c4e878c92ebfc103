package io.tributary.hadoop.tiered;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionManifestTest {
    static ManifestSegment segment(long base, long start, long end) {
        return new ManifestSegment(base, start, end, 1000 * (end - start), 1_700_000_000_000L + end,
            new TreeMap<>(Map.of(3, start)), TieredLayout.newLocation(base), base % 2 == 0, true);
    }

    @Test
    void everyFieldSurvivesItsText() {
        PartitionManifest manifest = new PartitionManifest("orders", 2, 7, 3, 5, 300,
            List.of(segment(0, 5, 100), segment(90, 100, 300)), List.of(new AbortedTransaction(17, 280, 310, 280)));

        PartitionManifest read = PartitionManifest.parse(manifest.encode(), 7);

        assertThat(read).isEqualTo(manifest);
        assertThat(read.startOffset()).isEqualTo(5);
        assertThat(manifest.encode()).contains("segment=90 100 300 200000 1700000000300 ")
            .contains("aborted=17 280 310 280");
    }

    @Test
    void anEmptiedManifestKeepsItsEnd() {
        PartitionManifest emptied = new PartitionManifest("orders", 0, 4, 1, 300, 300, List.of(), List.of());

        assertThat(PartitionManifest.parse(emptied.encode(), 4).startOffset()).isEqualTo(300);
        assertThat(PartitionManifest.empty("orders", 0).endOffset()).isEqualTo(-1);
    }

    @Test
    void whatIsNotAManifestIsRefusedNamingTheLine() {
        String good = new PartitionManifest("orders", 0, 1, 1, 0, 100, List.of(segment(0, 0, 100)), List.of()).encode();

        assertThatThrownBy(() -> PartitionManifest.parse(good.replace("format=1", "format=9"), 1))
            .hasMessageContaining("unknown manifest format 9");
        assertThatThrownBy(() -> PartitionManifest.parse(good.replace(" true 3:", " maybe 3:"), 1))
            .hasMessageContaining("bad manifest line 'segment=");
        assertThatThrownBy(() -> PartitionManifest.parse(good.replace("end.offset=100\n", ""), 1))
            .hasMessageContaining("end.offset");
        assertThatThrownBy(() -> new PartitionManifest("orders", 0, 1, 1, 0, 300,
            List.of(segment(0, 0, 100), segment(50, 50, 300)), List.of())).hasMessageContaining("overlap at offset 50");
    }
}
