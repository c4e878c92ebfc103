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
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A backfill of one topic by the loader, through the broker against from tiered segments on HDFS (MiniDFSCluster):
 * the loader's records/s, the broker's CPU seconds and bytes out during each, and the p99 produce-to-consume latency
 * of a live consumer of another topic on the same broker meanwhile. The broker runs in a JVM of its own (its CPU is
 * read from the OS); the loader runs in this one on Hadoop's local job runner, as many maps as cores. The two
 * backfills alternate over the rounds (broker first), each into a dataset of its own. After them, 10 s of the live
 * traffic alone give the broker's idle CPU rate, which the "above idle" column subtracts.
 *
 * <pre>
 * benchmarks/tiered [records, default 1000000] [value bytes, default 100] [rounds, default 1] [live records/s, default 2000]
 * </pre>
 */
public final class TieredBackfillBenchmark {
    private static final String BACKFILL = "backfill";
    private static final String LIVE = "live";
    private static final Pattern BYTES_OUT = Pattern.compile(
        "tributary_broker_bytes_out_total\\{topic=\"" + BACKFILL + "\",?\\} ([0-9.E+]+)");

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
                LogConfig.LOCAL_RETENTION_BYTES, String.valueOf(4 * 1024 * 1024))), new NewTopic(LIVE, 1, (short) 1))).all().get();
            produce(broker.bootstrapServers(), records, valueBytes);
            // All but the active segment and the one before it: copying is over before the backfills start.
            long tieredEnd = awaitTiered(dfs.getFileSystem(), root, records - 2L * 1024 * 1024 / (valueBytes + 20));
            System.out.printf("%d records of %d-byte values produced; %d of them tiered%n", records, valueBytes, tieredEnd);
            try (LiveTraffic live = LiveTraffic.start(broker.bootstrapServers(), liveRate)) {
                live.measure(); // warm-up: the live consumer's first seconds do not count
                Thread.sleep(3_000);
                List<String> sides = new ArrayList<>();
                List<Phase> phases = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    for (boolean tiered : List.of(false, true)) {
                        sides.add(tiered ? "tiered" : "broker");
                        phases.add(backfill(broker, http, root, dir.resolve("lake-" + round + (tiered ? "-tiered" : "-broker")),
                            tiered, live));
                    }
                }
                // After the backfills, when nothing else is left to copy: what the live traffic alone costs.
                double idle = idleCpuPerSecond(broker, live);
                System.out.printf("the broker with the live traffic alone: %.3f CPU s per s, live p99 %.1f ms%n", idle, live.measure());
                System.out.println(String.format("%-8s %12s %10s %14s %16s %12s %14s", "side", "records/s", "seconds",
                    "broker cpu s", "above idle cpu s", "bytes out", "live p99 ms"));
                for (int i = 0; i < phases.size(); i++) {
                    Phase phase = phases.get(i);
                    System.out.println(String.format("%-8s %12.0f %10.1f %14.2f %16.2f %12d %14.1f", sides.get(i),
                        phase.records / phase.seconds, phase.seconds, phase.brokerCpuSeconds,
                        phase.brokerCpuSeconds - idle * phase.seconds, phase.bytesOut, phase.liveP99Ms));
                }
            }
            System.out.println("load average: " + ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        } finally {
            broker.close();
            dfs.shutdown();
        }
    }

    private static void produce(String bootstrap, int records, int valueBytes) throws Exception {
        byte[] value = new byte[valueBytes];
        java.util.Arrays.fill(value, (byte) 'v');
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap, Map.of("linger.ms", 10, "batch.size", 131072))) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(BACKFILL, 0, null, value));
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

    /** What one backfill took. */
    private record Phase(long records, double seconds, double brokerCpuSeconds, long bytesOut, double liveP99Ms) {
    }

    private static Phase backfill(BrokerProcess broker, int http, String root, Path output, boolean tiered, LiveTraffic live)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrapServers(), "--topic", BACKFILL,
            "--output", output.toString(), "--start", "earliest"));
        if (tiered) {
            args.addAll(List.of("--tiered-storage", root));
        }
        ProcessHandle process = ProcessHandle.of(broker.pid()).orElseThrow();
        double cpuBefore = cpuSeconds(process);
        long bytesBefore = bytesOut(http);
        live.measure();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long started = System.nanoTime();
        int exit = ToolRunner.run(new Configuration(), new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8), System.err),
            args.toArray(String[]::new));
        double seconds = (System.nanoTime() - started) / 1e9;
        double liveP99 = live.measure();
        if (exit != 0) {
            throw new IllegalStateException("the loader failed: " + out.toString(StandardCharsets.UTF_8));
        }
        Matcher loaded = Pattern.compile("loaded (\\d+) records").matcher(out.toString(StandardCharsets.UTF_8));
        if (!loaded.find()) {
            throw new IllegalStateException("no record count in: " + out.toString(StandardCharsets.UTF_8));
        }
        return new Phase(Long.parseLong(loaded.group(1)), seconds, cpuSeconds(process) - cpuBefore, bytesOut(http) - bytesBefore,
            liveP99);
    }

    /** The broker's CPU seconds per second over 10 s with only the live traffic. */
    private static double idleCpuPerSecond(BrokerProcess broker, LiveTraffic live) throws InterruptedException {
        ProcessHandle process = ProcessHandle.of(broker.pid()).orElseThrow();
        live.measure();
        double before = cpuSeconds(process);
        long started = System.nanoTime();
        Thread.sleep(10_000);
        return (cpuSeconds(process) - before) / ((System.nanoTime() - started) / 1e9);
    }

    private static double cpuSeconds(ProcessHandle process) {
        return process.info().totalCpuDuration().orElseThrow().toNanos() / 1e9;
    }

    private static long bytesOut(int http) throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/metrics"))
            .build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = BYTES_OUT.matcher(metrics);
        return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
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
