package io.tributary.sink;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tributary.http.HttpEndpoint;
import io.tributary.http.StatusPage;
import io.tributary.http.StatusPage.Row;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the sink tells about itself: the partitions' latest snapshot ({@link PartitionStatus}), and its meters, served
 * with a status page on {@code http.listeners} when that is set ({@code GET /metrics} in the Prometheus text format,
 * {@code GET /}). Counters count what reached the dataset, so they only grow, across rebalances and retries. The poll
 * thread records and publishes; the HTTP thread reads. Thread-safe.
 */
final class SinkMonitor implements AutoCloseable {
    static final int REFRESH_SECONDS = 5;
    private static final String TOPIC = "topic";

    private final String groupId;
    private final Time time;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Timer commitLatency = Timer.builder("tributary.sink.commit.latency")
        .description("Time of one commit: closing the files, the group offsets, the intent, the ledger and the renames")
        .publishPercentiles(0.5, 0.99).register(registry);
    private final MultiGauge lag = MultiGauge.builder("tributary.sink.lag")
        .description("Records of an assigned partition the sink has not read yet (log end minus position)").register(registry);
    private volatile List<PartitionStatus> partitions = List.of();
    private HttpEndpoint endpoint;

    SinkMonitor(String groupId, Time time) {
        this.groupId = groupId;
        this.time = time;
        Gauge.builder("tributary.sink.partitions", this, monitor -> monitor.partitions.size())
            .description("Partitions assigned to this sink").register(registry);
        Gauge.builder("tributary.sink.partitions.recovering", this,
                monitor -> monitor.partitions.stream().filter(PartitionStatus::recovering).count())
            .description("Assigned partitions paused after a storage failure, waiting to retry").register(registry);
        Gauge.builder("tributary.sink.oldest.uncommitted", this,
                monitor -> monitor.partitions.stream().mapToLong(PartitionStatus::freshnessMs).max().orElse(0) / 1000.0)
            .description("How long the oldest record not yet committed has waited (rotate.interval.ms bounds it)")
            .baseUnit("seconds").register(registry);
    }

    /** Serves {@code GET /metrics} and the status page on {@code addresses} until {@link #close()}; none: no endpoint. */
    void serve(List<InetSocketAddress> addresses) throws IOException {
        if (!addresses.isEmpty()) {
            endpoint = HttpEndpoint.start(addresses, Map.of(
                "/metrics", new HttpEndpoint.Resource(HttpEndpoint.PROMETHEUS_TEXT, this::scrape),
                "/", new HttpEndpoint.Resource(HttpEndpoint.HTML, this::page)));
        }
    }

    /** Where the endpoint listens (real ports for port 0); empty without one. */
    List<InetSocketAddress> addresses() {
        return endpoint == null ? List.of() : endpoint.addresses();
    }

    /** A partition's files holding {@code records} records and {@code bytes} bytes are in the dataset. */
    void committed(TopicPartition partition, long records, int files, long bytes) {
        counter("tributary.sink.records.written", "Records in files committed to the dataset", partition).increment(records);
        counter("tributary.sink.bytes.written", "Bytes of Parquet files committed to the dataset", partition).increment(bytes);
        counter("tributary.sink.files.committed", "Parquet files committed to the dataset", partition).increment(files);
    }

    /** One commit of one or more partitions took {@code nanos}. */
    void commitTook(long nanos) {
        commitLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** A range of {@code offsets} offsets was gone from the log and skipped (on.missing=skip). */
    void lost(TopicPartition partition, long offsets) {
        counter("tributary.sink.lost.ranges", "Offset ranges the log no longer had, skipped under on.missing=skip", partition)
            .increment();
        counter("tributary.sink.lost.records", "Offsets in those ranges", partition).increment(offsets);
    }

    private Counter counter(String name, String description, TopicPartition partition) {
        return Counter.builder(name).description(description).tag(TOPIC, partition.topic()).register(registry);
    }

    /** The partitions' snapshot, sorted by topic and partition. */
    void publish(List<PartitionStatus> snapshot) {
        partitions = snapshot;
    }

    List<PartitionStatus> partitions() {
        return partitions;
    }

    String scrape() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (PartitionStatus status : partitions) {
            if (status.lag() >= 0) {
                rows.add(MultiGauge.Row.of(Tags.of(TOPIC, status.partition().topic(), "partition",
                    Integer.toString(status.partition().partition())), status.lag()));
            }
        }
        lag.register(rows, true);
        return registry.scrape();
    }

    String page() {
        List<PartitionStatus> snapshot = partitions;
        List<Row> rows = new ArrayList<>();
        for (PartitionStatus p : snapshot) {
            rows.add(new Row(List.of(p.partition().topic(), Integer.toString(p.partition().partition()),
                p.lag() < 0 ? "?" : Long.toString(p.lag()), Long.toString(p.freshnessMs()),
                String.format("%.0f", p.recordsPerSecond()), Long.toString(p.recordsCommitted()), Long.toString(p.filesCommitted()),
                p.committedOffset() < 0 ? "" : Long.toString(p.committedOffset()),
                p.lastCommitMs() < 0 ? "none yet" : Instant.ofEpochMilli(p.lastCommitMs()).toString(),
                p.lostRanges() == 0 ? "" : p.lostRecords() + " offsets in " + p.lostRanges() + " ranges",
                state(p)), p.recovering() || p.lostRanges() > 0 || p.heldBy().isPresent()));
        }
        long lastCommit = snapshot.stream().mapToLong(PartitionStatus::lastCommitMs).max().orElse(-1);
        return new StatusPage("Tributary sink " + groupId, REFRESH_SECONDS)
            .note(StatusReporter.summary(snapshot))
            .note(lastCommit < 0 ? "no commit yet" : "last commit " + Instant.ofEpochMilli(lastCommit))
            .section("Partitions")
            .table("partitions", List.of("topic", "partition", "lag", "oldest uncommitted (ms)", "records/s",
                "records committed", "files committed", "committed up to", "last commit", "lost", "state"), rows,
                List.of("partition", "lag", "oldest uncommitted (ms)", "records/s", "records committed", "files committed",
                    "committed up to"))
            .note("counts since this sink took each partition")
            .render(Instant.ofEpochMilli(time.milliseconds()));
    }

    private static String state(PartitionStatus p) {
        if (p.recovering()) {
            return "recovering (storage unreachable)";
        }
        return p.heldBy().map(hold -> "held " + hold.describe()).orElse("writing");
    }

    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
        registry.close();
    }
}
