package io.tributary.examples.pageviews;

import io.tributary.consumer.RealtimeConsumer;
import io.tributary.consumer.StartPosition;
import io.tributary.examples.BackgroundSink;
import io.tributary.examples.CountingProducer;
import io.tributary.examples.DatasetScan;
import io.tributary.examples.Deadline;
import io.tributary.examples.LocalHadoop;
import io.tributary.examples.SchemaFiles;
import io.tributary.examples.SteadyProducer;
import io.tributary.examples.TopicAdmin;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.LedgerState;
import io.tributary.hadoop.dataset.OffsetLedger;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The streaming half end to end: a steady stream of JSON page views into {@code page-views}; a
 * realtime-consumer group counting views per URL live; the hdfs-sink writing the same records
 * into the Parquet dataset with the JSON decoded into typed columns. After the stream stops it
 * waits until the live counts and the sink's ledger have caught up, and reads the Parquet back.
 */
public final class PageViewPipeline {
    public static final String TOPIC = "page-views";
    public static final int PARTITIONS = 6;
    public static final String SCHEMA_RESOURCE = "/io/tributary/examples/pageviews/page-view.avsc";
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(60);
    private static final int CONSOLE_TOP_URLS = 5;

    /**
     * @param produceFor       how long the stream runs
     * @param recordsPerSecond its rate
     * @param users            distinct users in the stream
     * @param liveGroup        group id of the live counter
     * @param sinkGroup        group id of the sink
     */
    public record Settings(Duration produceFor, int recordsPerSecond, int users, String liveGroup, String sinkGroup) {
    }

    private final Settings settings;
    private final Time time;
    private final Consumer<String> progress;

    /** {@code progress} receives a line of live counts every second, and a line per stage. */
    public PageViewPipeline(Settings settings, Time time, Consumer<String> progress) {
        this.settings = settings;
        this.time = time;
        this.progress = progress;
    }

    /** Runs the pipeline against the broker at {@code bootstrapServers}, writing into {@code warehouse}. */
    public PageViewReport run(String bootstrapServers, Path warehouse, Path schemaDir) throws Exception {
        Deadline deadline = new Deadline(time);
        try (TopicAdmin admin = new TopicAdmin(bootstrapServers)) {
            admin.ensureTopic(TOPIC, PARTITIONS);
            Path schemaFile = SchemaFiles.writeTo(SCHEMA_RESOURCE, schemaDir);
            LiveUrlCounts counts = new LiveUrlCounts();
            long produced;
            try (RealtimeConsumer live = startLiveCounter(bootstrapServers, counts);
                 BackgroundSink sink = BackgroundSink.start(
                     PageViewSinkSettings.forRun(bootstrapServers, warehouse, schemaFile, settings.sinkGroup()))) {
                progress.accept("producing page views to '" + TOPIC + "' (" + PARTITIONS + " partitions) at "
                    + settings.recordsPerSecond() + "/s for " + settings.produceFor().toSeconds() + " s; live views per URL:");
                Runnable checkHealthy = () -> {
                    sink.checkHealthy();
                    checkRunning(live);
                };
                produced = stream(bootstrapServers, counts, checkHealthy);
                progress.accept("stopped producing after " + produced + " page views; waiting for the live counts and the sink");
                deadline.await("the live consumer to count " + produced + " views", CATCH_UP_TIMEOUT, () -> {
                    checkHealthy.run();
                    return counts.total() >= produced;
                });
                Map<Integer, Long> ends = admin.endOffsets(TOPIC);
                deadline.await("the sink to commit every record into Parquet", CATCH_UP_TIMEOUT, () -> {
                    checkHealthy.run();
                    return sinkCaughtUp(warehouse, ends);
                });
            }
            long inTopic = admin.endOffsets(TOPIC).values().stream().mapToLong(Long::longValue).sum();
            DatasetScan parquet = DatasetScan.read(LocalHadoop.path(warehouse), TOPIC, "url", new Configuration());
            return new PageViewReport(produced, counts.total(), inTopic, counts.byUrl(), parquet);
        }
    }

    private RealtimeConsumer startLiveCounter(String bootstrapServers, LiveUrlCounts counts) {
        return RealtimeConsumer.builder()
            .bootstrapServers(bootstrapServers)
            .groupId(settings.liveGroup())
            .topics(TOPIC)
            .keyDeserializer(new StringDeserializer())
            .valueDeserializer(new StringDeserializer())
            .parallelism(3)
            .startPosition(StartPosition.earliest()) // a new group sees the views produced before it joined too
            .metricsInterval(Duration.ofMinutes(1), false)
            .recordHandler(counts::handle)
            .start();
    }

    /** Fails fast, with its cause, when the live consumer stopped on its own instead of waiting for a count. */
    private static void checkRunning(RealtimeConsumer live) {
        if (!live.isRunning()) {
            Throwable cause = live.failure().orElse(null);
            throw new IllegalStateException("the live consumer stopped: " + (cause == null ? "closed" : cause), cause);
        }
    }

    private long stream(String bootstrapServers, LiveUrlCounts counts, Runnable checkHealthy) throws InterruptedException {
        PageViewGenerator generator = new PageViewGenerator(42, settings.users());
        try (CountingProducer<String, String> producer =
                 new CountingProducer<>(bootstrapServers, new StringSerializer(), new StringSerializer())) {
            producer.warmUp(TOPIC);
            SteadyProducer<String, String> stream = new SteadyProducer<>(producer, () -> {
                PageView view = generator.next(time.milliseconds());
                // Keyed by user: one user's views stay in order on one partition.
                return new ProducerRecord<>(TOPIC, null, view.timestamp(), view.user(), view.toJson());
            }, settings.recordsPerSecond(), time).start();
            long end = time.milliseconds() + settings.produceFor().toMillis();
            try {
                while (time.milliseconds() < end) {
                    time.sleep(Math.min(1000, Math.max(1, end - time.milliseconds())));
                    checkHealthy.run();
                    progress.accept(counts.line(CONSOLE_TOP_URLS));
                }
            } finally {
                stream.stop();
            }
            return stream.produced();
        }
    }

    /** True once the sink's loaded-offset ledger has reached the end offset of every non-empty partition. */
    private static boolean sinkCaughtUp(Path warehouse, Map<Integer, Long> endOffsets) throws IOException {
        DatasetLayout layout = DatasetLayout.utc(LocalHadoop.path(warehouse));
        LedgerState ledger = OffsetLedger.open(layout, TOPIC, new Configuration()).read();
        return endOffsets.entrySet().stream()
            .allMatch(end -> end.getValue() == 0 || ledger.nextOffset(end.getKey()).orElse(0) >= end.getValue());
    }
}
