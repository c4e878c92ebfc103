package io.tributary.broker.tiered.bench;

import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.remote.RemoteLogConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.hadoop.loader.TopicLoader;
import io.tributary.hadoop.tiered.ManifestStore;
import io.tributary.hadoop.tiered.TieredLayout;
import io.tributary.testkit.FreePorts;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.util.ToolRunner;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A backfill of one topic by the loader, through the broker against from tiered segments on HDFS (MiniDFSCluster). The
 * broker runs in a JVM of its own (its CPU is read from the OS, its JIT compiler's part from /proc); the loader runs in
 * this one on Hadoop's local job runner, as many maps as cores. Two parts:
 * <ul>
 *   <li>with nothing else on the broker: each backfill and a plan alone ({@code --dry-run}) between two idle readings,
 *       what each costs the broker above its idle rate, its bytes out, and the requests it handled by API;</li>
 *   <li>a consumer from offset 0 of the tiered topic (its records served from remote storage) against one of the same
 *       records kept locally;</li>
 *   <li>with live traffic (a producer at a steady rate and a consumer of another topic): the loader's records/s and the
 *       live consumer's p99 produce-to-consume latency during each backfill; the two alternate over the rounds.</li>
 * </ul>
 *
 * <pre>
 * benchmarks/tiered [records, default 1000000] [value bytes, default 100] [rounds, default 1] [live records/s, default 2000]
 * </pre>
 */
public final class TieredBackfillBenchmark {
    private static final String BACKFILL = "backfill";
    private static final String LIVE = "live";
    /** The same records as {@link #BACKFILL}, never tiered: what a consumer reads from local segments. */
    private static final String LOCAL = "backfill-local";
    private static final long LIVE_WARM_UP_MS = 20_000;
    private static final Pattern BYTES_OUT = Pattern.compile(
        "tributary_broker_bytes_out_total\\{topic=\"" + BACKFILL + "\",?\\} ([0-9.E+]+)");
    private static final Pattern REQUESTS = Pattern.compile(
        "tributary_request_latency_seconds_count\\{api=\"([^\"]+)\",?\\} ([0-9.E+]+)");

    private TieredBackfillBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int valueBytes = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int liveRate = args.length > 3 ? Integer.parseInt(args[3]) : 2_000;
        Path dir = Files.createTempDirectory("tiered-bench");
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(new Configuration(), dir.resolve("dfs").toFile()).numDataNodes(1).build();
        int http = FreePorts.next();
        String root = dfs.getFileSystem().getUri() + "/tiered";
        BrokerProcess broker = BrokerProcess.start(Files.createDirectories(dir.resolve("broker")), Map.of(
            LogConfig.REMOTE_LOG_STORAGE_SYSTEM_ENABLE, "true",
            RemoteLogConfig.REMOTE_LOG_STORAGE_HDFS_URI, root,
            RemoteLogConfig.REMOTE_LOG_MANAGER_TASK_INTERVAL_MS, "1000",
            BrokerConfig.HTTP_LISTENERS, "http://127.0.0.1:" + http,
            BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0"));
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(BACKFILL, 1, (short) 1).configs(Map.of(
                LogConfig.REMOTE_STORAGE_ENABLE, "true", LogConfig.SEGMENT_BYTES, String.valueOf(1024 * 1024),
                LogConfig.LOCAL_RETENTION_BYTES, String.valueOf(4 * 1024 * 1024))), new NewTopic(LIVE, 1, (short) 1),
                new NewTopic(LOCAL, 1, (short) 1).configs(Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(1024 * 1024))))).all().get();
            produce(broker.bootstrapServers(), BACKFILL, records, valueBytes);
            produce(broker.bootstrapServers(), LOCAL, records, valueBytes);
            // All but the active segment and the one before it: copying is over before the backfills start.
            long tieredEnd = awaitTiered(dfs.getFileSystem(), root, records - 2L * 1024 * 1024 / (valueBytes + 20));
            System.out.printf("%d records of %d-byte values produced; %d of them tiered%n", records, valueBytes, tieredEnd);
            quietBroker(broker, http, root, dir);
            consumersFromZero(broker, records);
            try (LiveTraffic live = LiveTraffic.start(broker.bootstrapServers(), liveRate)) {
                // Warm-up: the broker compiles the live traffic's paths for a while, and the live consumer's first
                // seconds do not count. The idle rate is read before and after the backfills.
                Thread.sleep(LIVE_WARM_UP_MS);
                double idleBefore = idleWorkPerSecond(broker);
                live.measure();
                List<String> sides = new ArrayList<>();
                List<Phase> phases = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    for (boolean tiered : List.of(false, true)) {
                        sides.add(tiered ? "tiered" : "broker");
                        phases.add(backfill(broker, http, root, dir.resolve("lake-" + round + (tiered ? "-tiered" : "-broker")),
                            tiered, false, live::measure));
                    }
                }
                double liveAloneP99 = live.measure();
                double idleAfter = idleWorkPerSecond(broker);
                System.out.printf("%nwith live traffic (%d records/s): the broker with it alone %.3f CPU s per s before, %.3f after"
                    + " (JIT left out), live p99 alone %.1f ms%n", liveRate, idleBefore, idleAfter, liveAloneP99);
                // No "above idle" here: the live traffic's own cost per second falls while a backfill loads the cores
                // (its consumer's fetches wait longer and carry more records), so the difference means nothing.
                printTable(sides, phases, Double.NaN);
            }
            System.out.println("load average: " + ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        } finally {
            broker.close();
            dfs.shutdown();
        }
    }

    /**
     * The backfills again with nothing else on the broker, between two idle readings: what each costs the broker above
     * its idle rate, and which requests the tiered one sent it. A plan alone ({@code --dry-run}) separates the
     * planning's requests from the untiered tail's reads.
     */
    private static void quietBroker(BrokerProcess broker, int http, String root, Path dir) throws Exception {
        double idleBefore = idleWorkPerSecond(broker);
        List<String> sides = List.of("broker", "tiered", "plan");
        List<Phase> phases = List.of(
            backfill(broker, http, root, dir.resolve("quiet-broker"), false, false, () -> Double.NaN),
            backfill(broker, http, root, dir.resolve("quiet-tiered"), true, false, () -> Double.NaN),
            backfill(broker, http, root, dir.resolve("quiet-plan"), true, true, () -> Double.NaN));
        double idleAfter = idleWorkPerSecond(broker);
        double idle = (idleBefore + idleAfter) / 2;
        System.out.printf("%nno other traffic: the broker idle %.4f CPU s per s before, %.4f after (JIT left out)%n",
            idleBefore, idleAfter);
        printTable(sides, phases, idle);
        for (int i = 0; i < phases.size(); i++) {
            System.out.printf("requests to the broker during %s: %s%n", sides.get(i), phases.get(i).requests);
        }
    }

    /** "above idle" is the broker's CPU seconds besides its JIT compiler's, less its idle rate over the phase. */
    private static void printTable(List<String> sides, List<Phase> phases, double idleWorkPerSecond) {
        System.out.println(String.format("%-8s %12s %10s %14s %12s %16s %12s %14s", "side", "records/s", "seconds",
            "broker cpu s", "of it JIT s", "above idle cpu s", "bytes out", "live p99 ms"));
        for (int i = 0; i < phases.size(); i++) {
            Phase phase = phases.get(i);
            System.out.println(String.format("%-8s %12.0f %10.1f %14.3f %12.3f %16.3f %12d %14.1f", sides.get(i),
                phase.records / phase.seconds, phase.seconds, phase.brokerCpu.total(), phase.brokerCpu.jit(),
                phase.aboveIdle(idleWorkPerSecond), phase.bytesOut, phase.liveP99Ms));
        }
    }

    /**
     * A consumer reading each topic from offset 0 to its end, twice, alternating: the tiered topic's records come from
     * remote storage through the broker's remote-read pool, the local topic's from its segments.
     */
    private static void consumersFromZero(BrokerProcess broker, int records) throws Exception {
        System.out.printf("%na consumer from offset 0 to the end (%d records)%n", records);
        System.out.println(String.format("%-28s %12s %10s %14s %12s", "topic", "records/s", "seconds", "broker cpu s",
            "of it JIT s"));
        for (int round = 0; round < 2; round++) {
            for (String topic : List.of(LOCAL, BACKFILL)) {
                BrokerCpu before = BrokerCpu.read(broker.pid());
                long started = System.nanoTime();
                long read = consumeFromZero(broker.bootstrapServers(), topic);
                double seconds = (System.nanoTime() - started) / 1e9;
                BrokerCpu cpu = BrokerCpu.read(broker.pid()).minus(before);
                if (read != records) {
                    throw new IllegalStateException(topic + ": read " + read + " records of " + records);
                }
                System.out.println(String.format("%-28s %12.0f %10.1f %14.3f %12.3f",
                    topic.equals(BACKFILL) ? BACKFILL + " (tiered)" : topic + " (local)", read / seconds, seconds, cpu.total(), cpu.jit()));
            }
        }
    }

    private static long consumeFromZero(String bootstrap, String topic) {
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(bootstrap)) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long read = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (consumer.position(tp) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topic + ": not read to " + end + " within 5 minutes");
                }
                read += consumer.poll(Duration.ofMillis(500)).count();
            }
            return read;
        }
    }

    private static void produce(String bootstrap, String topic, int records, int valueBytes) throws Exception {
        byte[] value = new byte[valueBytes];
        java.util.Arrays.fill(value, (byte) 'v');
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap, Map.of("linger.ms", 10, "batch.size", 131072))) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, value));
            }
            producer.flush();
        }
    }

    private static long awaitTiered(FileSystem fs, String root, long offset) throws Exception {
        ManifestStore manifests = new ManifestStore(fs, new TieredLayout(new org.apache.hadoop.fs.Path(root)));
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (System.nanoTime() < deadline) {
            long end = manifests.read(BACKFILL, 0).endOffset();
            if (end >= offset) {
                return end;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("not tiered up to " + offset + " within 10 minutes");
    }

    /** What one backfill took; {@code requests} counts the broker's requests by API meanwhile. */
    private record Phase(long records, double seconds, BrokerCpu brokerCpu, long bytesOut, double liveP99Ms,
                         Map<String, Long> requests) {
        double aboveIdle(double idleWorkPerSecond) {
            return brokerCpu.work() - idleWorkPerSecond * seconds;
        }
    }

    private static Phase backfill(BrokerProcess broker, int http, String root, Path output, boolean tiered, boolean planOnly,
                                  DoubleSupplier liveP99) throws Exception {
        List<String> args = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrapServers(), "--topic", BACKFILL,
            "--output", output.toString(), "--start", "earliest"));
        if (tiered) {
            args.addAll(List.of("--tiered-storage", root));
        }
        if (planOnly) {
            args.add("--dry-run");
        }
        BrokerCpu cpuBefore = BrokerCpu.read(broker.pid());
        String metricsBefore = metrics(http);
        liveP99.getAsDouble();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long started = System.nanoTime();
        int exit = ToolRunner.run(new Configuration(), new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8), System.err),
            args.toArray(String[]::new));
        double seconds = (System.nanoTime() - started) / 1e9;
        double p99 = liveP99.getAsDouble();
        BrokerCpu cpu = BrokerCpu.read(broker.pid()).minus(cpuBefore);
        String metricsAfter = metrics(http);
        if (exit != 0) {
            throw new IllegalStateException("the loader failed: " + out.toString(StandardCharsets.UTF_8));
        }
        Matcher loaded = Pattern.compile("loaded (\\d+) records").matcher(out.toString(StandardCharsets.UTF_8));
        if (!planOnly && !loaded.find()) {
            throw new IllegalStateException("no record count in: " + out.toString(StandardCharsets.UTF_8));
        }
        return new Phase(planOnly ? 0 : Long.parseLong(loaded.group(1)), seconds, cpu,
            bytesOut(metricsAfter) - bytesOut(metricsBefore), p99, requestsBetween(metricsBefore, metricsAfter));
    }

    /** The broker's CPU seconds per second besides its JIT compiler's, over 10 s with no backfill (and any live traffic). */
    private static double idleWorkPerSecond(BrokerProcess broker) throws Exception {
        BrokerCpu before = BrokerCpu.read(broker.pid());
        long started = System.nanoTime();
        Thread.sleep(10_000);
        return BrokerCpu.read(broker.pid()).minus(before).work() / ((System.nanoTime() - started) / 1e9);
    }

    /**
     * A JVM's CPU seconds from the OS, and the part its JIT compiler threads took (from /proc: Linux, where USER_HZ is
     * 100). Compiling the paths the backfill or the live traffic first runs is not what a backfill costs a warm broker.
     * A compiler thread that ends between two readings takes its time with it: JIT is then counted as work, never the
     * other way round.
     */
    private record BrokerCpu(double total, double jit) {
        static BrokerCpu read(long pid) throws IOException {
            double total = ProcessHandle.of(pid).orElseThrow().info().totalCpuDuration().orElseThrow().toNanos() / 1e9;
            double jit = 0;
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path task : tasks) {
                    String stat;
                    try {
                        stat = Files.readString(task.resolve("stat"));
                    } catch (NoSuchFileException ended) {
                        continue;
                    }
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (name.contains("CompilerThre")) {
                        jit += (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0; // utime, stime
                    }
                }
            }
            return new BrokerCpu(total, jit);
        }

        BrokerCpu minus(BrokerCpu before) {
            return new BrokerCpu(total - before.total, Math.max(0, jit - before.jit));
        }

        double work() {
            return total - jit;
        }
    }

    private static String metrics(int http) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/metrics"))
            .build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static long bytesOut(String metrics) {
        Matcher m = BYTES_OUT.matcher(metrics);
        return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
    }

    /** The requests the broker handled between two readings of its metrics, by API, those with none left out. */
    private static Map<String, Long> requestsBetween(String before, String after) {
        Map<String, Long> counts = new TreeMap<>(requestCounts(after));
        requestCounts(before).forEach((api, count) -> counts.merge(api, -count, Long::sum));
        counts.values().removeIf(count -> count == 0);
        return counts;
    }

    private static Map<String, Long> requestCounts(String metrics) {
        Map<String, Long> counts = new TreeMap<>();
        Matcher m = REQUESTS.matcher(metrics);
        while (m.find()) {
            counts.put(m.group(1), (long) Double.parseDouble(m.group(2)));
        }
        return counts;
    }

    /** A producer at a steady rate and a consumer measuring each record's produce-to-consume latency. */
    private static final class LiveTraffic implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Long> latenciesMs = Collections.synchronizedList(new ArrayList<>());
        private final Thread producer;
        private final Thread consumer;

        private LiveTraffic(String bootstrap, int rate) {
            producer = new Thread(() -> {
                try (KafkaProducer<byte[], byte[]> p = Clients.producer(bootstrap, Map.of("linger.ms", 0))) {
                    long next = System.nanoTime();
                    while (running.get()) {
                        p.send(new ProducerRecord<>(LIVE, 0, System.currentTimeMillis(), null, new byte[100]));
                        next += 1_000_000_000L / rate;
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(wait);
                        }
                    }
                }
            }, "live-producer");
            consumer = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> c = Clients.consumer(bootstrap, Map.of("fetch.max.wait.ms", 100))) {
                    TopicPartition tp = new TopicPartition(LIVE, 0);
                    c.assign(List.of(tp));
                    c.seekToEnd(List.of(tp));
                    while (running.get()) {
                        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                            latenciesMs.add(System.currentTimeMillis() - r.timestamp());
                        }
                    }
                }
            }, "live-consumer");
        }

        static LiveTraffic start(String bootstrap, int rate) {
            LiveTraffic traffic = new LiveTraffic(bootstrap, rate);
            traffic.producer.start();
            traffic.consumer.start();
            return traffic;
        }

        /** The p99 of the latencies since the last call (ms), and a fresh start. */
        double measure() {
            List<Long> taken;
            synchronized (latenciesMs) {
                taken = new ArrayList<>(latenciesMs);
                latenciesMs.clear();
            }
            if (taken.isEmpty()) {
                return Double.NaN;
            }
            Collections.sort(taken);
            return taken.get(Math.min(taken.size() - 1, (int) Math.ceil(taken.size() * 0.99) - 1));
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            producer.join(10_000);
            consumer.join(10_000);
        }
    }
}
