package io.tributary.examples.serverlogs;

import io.tributary.examples.CountingProducer;
import io.tributary.examples.DatasetScan;
import io.tributary.examples.SchemaFiles;
import io.tributary.examples.TopicAdmin;
import io.tributary.hadoop.loader.TopicLoader;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The batch half end to end: text log lines parsed into Avro records on {@code server-logs}; the
 * loader (a MapReduce job, here on the local job runner) loading the new records into the Parquet
 * dataset with the value schema, so the fields become typed columns; then a second MapReduce job
 * over the Parquet table counting errors per host.
 */
public final class ServerLogPipeline {
    public static final String TOPIC = "server-logs";
    public static final int PARTITIONS = 3;

    /**
     * @param lines        lines to produce
     * @param hosts        distinct servers writing them
     * @param lineSpacingMs time between two lines, so the lines span a realistic window
     */
    public record Settings(int lines, int hosts, long lineSpacingMs) {
    }

    private final Settings settings;
    private final Time time;
    private final Consumer<String> progress;

    public ServerLogPipeline(Settings settings, Time time, Consumer<String> progress) {
        this.settings = settings;
        this.time = time;
        this.progress = progress;
    }

    /**
     * Runs against the broker at {@code bootstrapServers}; the loader and the job use
     * {@code hadoop} (the local job runner, or a cluster) and read and write {@code warehouse}.
     */
    public ServerLogReport run(String bootstrapServers, Path warehouse, java.nio.file.Path schemaDir,
                               Path resultDir, Configuration hadoop) throws Exception {
        try (TopicAdmin admin = new TopicAdmin(bootstrapServers)) {
            admin.ensureTopic(TOPIC, PARTITIONS);
            Produced produced = produce(bootstrapServers);
            progress.accept("produced " + produced.lines() + " log lines to '" + TOPIC + "' as Avro records; loading "
                + "them with the MapReduce loader (local job runner)");
            load(bootstrapServers, warehouse, SchemaFiles.writeTo(ErrorsPerHostJob.SCHEMA_RESOURCE, schemaDir), hadoop);
            long inTopic = admin.endOffsets(TOPIC).values().stream().mapToLong(Long::longValue).sum();
            DatasetScan parquet = DatasetScan.read(warehouse, TOPIC, null, hadoop);
            progress.accept("counting errors per host with a MapReduce job over the Parquet table");
            return new ServerLogReport(produced.lines(), inTopic, parquet, produced.errorsByHost(),
                countErrors(warehouse, resultDir, hadoop), resultDir.toString());
        }
    }

    /** What was sent: lines acknowledged, and the ERROR lines among them per host. */
    private record Produced(long lines, Map<String, Long> errorsByHost) {
    }

    private Produced produce(String bootstrapServers) {
        Schema schema = SchemaFiles.parse(ErrorsPerHostJob.SCHEMA_RESOURCE);
        try (CountingProducer<String, byte[]> producer =
                 new CountingProducer<>(bootstrapServers, new StringSerializer(), new ByteArraySerializer())) {
            ServerLogProducer logs = new ServerLogProducer(TOPIC, schema, producer);
            LogLineGenerator generator = new LogLineGenerator(7, settings.hosts());
            long first = time.milliseconds() - settings.lines() * settings.lineSpacingMs();
            for (int i = 0; i < settings.lines(); i++) {
                logs.send(generator.next(first + i * settings.lineSpacingMs()));
            }
            producer.flush();
            return new Produced(producer.acknowledged(), logs.errorsByHost());
        }
    }

    private static Map<String, Long> countErrors(Path warehouse, Path resultDir, Configuration hadoop) throws Exception {
        int rc = ToolRunner.run(new Configuration(hadoop), new ErrorsPerHostJob(),
            new String[] {warehouse.toString(), resultDir.toString()});
        if (rc != 0) {
            throw new IllegalStateException("the errors-per-host job failed (exit code " + rc + ")");
        }
        return ErrorsPerHostJob.readResult(resultDir, hadoop);
    }

    /** Runs the loader as {@code bin/tributary-loader} would, and hands its summary to the progress lines. */
    private void load(String bootstrapServers, Path warehouse, java.nio.file.Path schemaFile, Configuration hadoop)
            throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            rc = ToolRunner.run(new Configuration(hadoop), new TopicLoader(outStream, errStream), new String[] {
                "--bootstrap-server", bootstrapServers, "--topic", TOPIC, "--output", warehouse.toString(),
                "--value-schema", schemaFile.toString(), "--value-format", "avro"});
        }
        out.toString(StandardCharsets.UTF_8).lines().forEach(line -> progress.accept("  loader: " + line));
        if (rc != 0) {
            throw new IllegalStateException("the loader failed (exit code " + rc + "): " + err.toString(StandardCharsets.UTF_8));
        }
    }
}
