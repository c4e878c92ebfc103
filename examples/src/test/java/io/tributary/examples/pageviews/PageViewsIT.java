package io.tributary.examples.pageviews;

import io.tributary.examples.DatasetRows;
import io.tributary.examples.LocalBroker;
import io.tributary.examples.LocalHadoop;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The page-views example against a Tributary broker: live counts, sink output and a second run. */
class PageViewsIT {
    private static LocalBroker broker;
    private static Path warehouse;

    @BeforeAll
    static void startBroker(@TempDir Path dir) throws Exception {
        broker = LocalBroker.start(dir.resolve("broker"), 0);
        warehouse = dir.resolve("warehouse");
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void liveCountsAndTheParquetTableAgreeAndARerunAddsToTheSameTable() throws Exception {
        List<String> progress = new ArrayList<>();
        PageViewReport first = new PageViewPipeline(new PageViewPipeline.Settings(Duration.ofSeconds(3), 300, 200,
            "it-live", "it-sink"), Time.SYSTEM, progress::add).run(broker.bootstrapServers(), warehouse, warehouse.resolveSibling("schemas"));

        assertThat(first.countsAgree()).as("%s", first).isTrue();
        assertThat(first.produced()).isGreaterThan(300);
        assertThat(first.liveByUrl()).containsKey("/");
        assertThat(progress).anyMatch(line -> line.contains("views | /"));
        GenericRecord row = DatasetRows.first(LocalHadoop.path(warehouse), PageViewPipeline.TOPIC, new Configuration());
        assertThat(row.get("user").toString()).startsWith("user-");
        assertThat(row.get("url").toString()).startsWith("/");
        assertThat(row.get("referrer")).isNotNull();
        ByteBuffer value = (ByteBuffer) row.get("value");
        byte[] json = new byte[value.remaining()];
        value.get(json);
        // The JSON's timestamp is the record timestamp: the timestamp column (timestamp-millis, read as an Instant).
        assertThat(row.get("timestamp")).isEqualTo(Instant.ofEpochMilli(PageView.fromJson(new String(json, StandardCharsets.UTF_8)).timestamp()));

        // The README's way: the example command, against the same broker and dataset. The sink resumes
        // at its ledger, so the table holds both runs once.
        int exit = new CommandLine(new PageViewsExample()).execute("--bootstrap-server", broker.bootstrapServers(),
            "--output", warehouse.toString(), "--seconds", "2", "--rate", "300");

        assertThat(exit).isZero();
    }
}
