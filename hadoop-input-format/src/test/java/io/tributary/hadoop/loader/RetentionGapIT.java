package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.LostRangeReport;
import io.tributary.hadoop.testing.BrokerExtension;
import io.tributary.hadoop.testing.Datasets;
import io.tributary.hadoop.testing.LocalJobs;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Records deleted by retention before the loader got to them: a clear failure, or skip and report. */
class RetentionGapIT {
    @RegisterExtension
    static final BrokerExtension BROKER = new BrokerExtension();

    @TempDir
    java.nio.file.Path work;



    @Test
    void failsNamingTheLostRangeThenSkipModeLoadsTheRestAndReportsIt() throws Exception {
        BROKER.broker().createTopic("ret", 2);
        long now = System.currentTimeMillis();
        BROKER.broker().produce("ret", 2, 1_000, now - 60_000, 1, (p, i) -> ("v" + i).getBytes(StandardCharsets.UTF_8));
        Path output = new Path(work.resolve("lake").toUri());
        Configuration conf = LocalJobs.conf(work);
        String[] args = {"--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "ret", "--output", output.toString()};
        assertThat(LocalLoaderIT.load(conf, args).exitCode()).isZero();

        BROKER.broker().produce("ret", 2, 1_000, now - 30_000, 1, (p, i) -> ("w" + i).getBytes(StandardCharsets.UTF_8));
        BROKER.broker().deleteRecordsBefore("ret", 1, 1_500); // retention took offsets 1000..1499 of partition 1 before the next load

        LocalLoaderIT.Run failed = LocalLoaderIT.load(conf, args);
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.err()).contains("ret-1 offsets [1000, 1500)", "on.missing=skip");
        Datasets.assertEveryOffsetOnce(output, "ret", 2, 1_000, conf);
        assertThat(LocalLoaderIT.ledger(output, "ret", conf)).isEqualTo(Map.of(0, 1_000L, 1, 1_000L));

        LocalLoaderIT.Run skipped = LocalLoaderIT.load(conf, concat("--on-missing", "skip", args));
        assertThat(skipped.exitCode()).as(skipped.err()).isZero();
        assertThat(skipped.out()).contains("loaded 1500 records", "lost ranges: [ret-1 offsets [1000, 1500)]", "lost-range report: ");
        Map<Integer, BitSet> offsets = Datasets.offsetsByPartition(output, "ret", conf);
        assertThat(offsets.get(0).cardinality()).isEqualTo(2_000);
        BitSet expected1 = new BitSet();
        expected1.set(0, 1_000);
        expected1.set(1_500, 2_000);
        assertThat(offsets.get(1)).isEqualTo(expected1);
        assertThat(LocalLoaderIT.ledger(output, "ret", conf)).isEqualTo(Map.of(0, 2_000L, 1, 2_000L));

        String reportPath = skipped.out().lines().filter(l -> l.startsWith("lost-range report: ")).findFirst().orElseThrow()
            .substring("lost-range report: ".length());
        assertThat(new Path(reportPath).getParent()).isEqualTo(new Path(DatasetLayout.utc(output).metaDir(), "lost-ranges"));
        List<String> report = Files.readAllLines(Paths.get(new Path(reportPath).toUri()));
        assertThat(report).containsExactly(LostRangeReport.HEADER, new LostRange("ret", 1, 1_000, 1_500).reportLine());
    }

    @Test
    void aSkippedRangeIsReportedEvenWhenTheJobFailsAfterItsLedgerAdvance() throws Exception {
        BROKER.broker().createTopic("ret-late", 1);
        BROKER.broker().produce("ret-late", 1, 1_000, System.currentTimeMillis() - 60_000, 1, (p, i) -> ("v" + i).getBytes(StandardCharsets.UTF_8));
        Path output = new Path(work.resolve("late-lake").toUri());
        Configuration conf = LocalJobs.conf(work);
        String[] args = {"--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "ret-late", "--output", output.toString()};
        assertThat(LocalLoaderIT.load(conf, args).exitCode()).isZero();
        BROKER.broker().produce("ret-late", 1, 1_000, System.currentTimeMillis() - 30_000, 1, (p, i) -> ("w" + i).getBytes(StandardCharsets.UTF_8));
        BROKER.broker().deleteRecordsBefore("ret-late", 0, 1_500);
        LocalLoaderIT.Run failed = LocalLoaderIT.loadFailingAfterTheLedgerAdvance(conf, concat("--on-missing", "skip", args));

        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(LocalLoaderIT.ledger(output, "ret-late", conf)).as("the ledger moved past the gap").isEqualTo(Map.of(0, 2_000L));
        assertThat(failed.err()).contains("failed after its ledger advance", "lost-range report: ");
        Path lostRanges = new Path(DatasetLayout.utc(output).metaDir(), "lost-ranges");
        List<String> report = new ArrayList<>();
        for (FileStatus file : FileSystem.getLocal(conf).listStatus(lostRanges)) {
            report.addAll(Files.readAllLines(Paths.get(file.getPath().toUri())));
        }
        assertThat(report).containsExactly(LostRangeReport.HEADER, new LostRange("ret-late", 0, 1_000, 1_500).reportLine());
    }

    private static String[] concat(String a, String b, String[] rest) {
        String[] all = new String[rest.length + 2];
        all[0] = a;
        all[1] = b;
        System.arraycopy(rest, 0, all, 2, rest.length);
        return all;
    }
}
