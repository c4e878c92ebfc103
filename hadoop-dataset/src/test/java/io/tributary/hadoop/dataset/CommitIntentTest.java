package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class CommitIntentTest {
    private final CommitIntent intent = new CommitIntent(1500, "c0ffee", 4, OptionalLong.of(1000), List.of(
        new CommitIntent.Rename(new Path("hdfs://nn:8020/d/_tributary/tmp/t/0/a.parquet.tmp"),
            new Path("hdfs://nn:8020/d/t/dt=2026-11-30/hr=07/t+0+1000+1499.parquet")),
        new CommitIntent.Rename(new Path("file:/d/_tributary/tmp/t/0/b.parquet.tmp"),
            new Path("file:/d/t/dt=2026-11-30/hr=08/t+0+1002+1497.parquet"))));

    @Test
    void roundTripsThroughItsText() {
        assertThat(CommitIntent.decode(intent.encode())).contains(intent);
    }

    @Test
    void anIntentWithoutRenamesStillMovesTheLedger() {
        CommitIntent skipsOnly = new CommitIntent(7, "c0ffee", 0, OptionalLong.empty(), List.of());
        assertThat(CommitIntent.decode(skipsOnly.encode())).contains(skipsOnly);
    }

    @Test
    void aTruncatedIntentIsNoIntent() {
        String text = intent.encode();
        for (int cut = 0; cut < text.length() - 1; cut++) {
            assertThat(CommitIntent.decode(text.substring(0, cut))).as("cut at %d", cut).isEmpty();
        }
    }

    @Test
    void garbageIsNoIntent() {
        assertThat(CommitIntent.decode("next=x\nend\n")).isEmpty();
        assertThat(CommitIntent.decode("next=1\nwriter=w\nbasis=0\nread=\nrename=only-one-path\nend\n")).isEmpty();
        assertThat(CommitIntent.decode("next=1\nrename=a\tb\nend\n")).as("an intent of the earlier format").isEmpty();
        assertThat(CommitIntent.decode("hello\nend\n")).isEmpty();
    }
}
