package io.tributary.examples.serverlogs;

import io.tributary.examples.DatasetRows;
import io.tributary.examples.LocalBroker;
import io.tributary.examples.LocalHadoop;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The server-logs example against a Tributary broker: loader with a value schema, then the errors job. */
class ServerLogsIT {
    private static LocalBroker broker;
    private static java.nio.file.Path work;

    @BeforeAll
    static void startBroker(@TempDir java.nio.file.Path dir) throws Exception {
        broker = LocalBroker.start(dir.resolve("broker"), 0);
        work = dir;
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void loadsTypedColumnsAndTheJobFindsTheErrorsThatWereSent() throws Exception {
        Path warehouse = LocalHadoop.path(work.resolve("warehouse"));
        Configuration hadoop = LocalHadoop.conf(work.resolve("hadoop"));
        List<String> progress = new ArrayList<>();

        ServerLogReport report = new ServerLogPipeline(new ServerLogPipeline.Settings(3000, 4, 10), Time.SYSTEM, progress::add)
            .run(broker.bootstrapServers(), warehouse, work.resolve("schemas"), LocalHadoop.path(work.resolve("errors-1")), hadoop);

        assertThat(report.countsAgree()).as("%s", report).isTrue();
        assertThat(report.parquet().rows()).isEqualTo(3000);
        assertThat(report.errorsComputed()).containsOnlyKeys("host-01", "host-02", "host-03", "host-04");
        assertThat(progress).anyMatch(line -> line.startsWith("  loader: loaded 3000 records"));
        GenericRecord row = DatasetRows.first(warehouse, ServerLogPipeline.TOPIC, hadoop);
        assertThat(row.get("status")).isInstanceOf(Integer.class);
        assertThat(row.get("latency_ms")).isInstanceOf(Long.class);
        assertThat(row.get("host").toString()).startsWith("host-");

        // The README's way, run again on the same topic: the loader takes only the new lines.
        int exit = new CommandLine(new ServerLogsExample()).execute("--bootstrap-server", broker.bootstrapServers(),
            "--output", work.resolve("warehouse").toString(), "--lines", "1000");

        assertThat(exit).isZero();
    }
}
