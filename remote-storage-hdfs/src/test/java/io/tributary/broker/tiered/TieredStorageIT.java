package io.tributary.broker.tiered;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.remote.RemoteLogConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestCluster;
import io.tributary.hadoop.tiered.ManifestSegment;
import io.tributary.hadoop.tiered.ManifestStore;
import io.tributary.hadoop.tiered.PartitionManifest;
import io.tributary.hadoop.tiered.SegmentFile;
import io.tributary.hadoop.tiered.TieredLayout;
import io.tributary.hadoop.loader.TopicLoader;
import io.tributary.hadoop.testing.Datasets;
import io.tributary.hadoop.testing.LoaderCommand;
import io.tributary.hadoop.testing.MiniHadoop;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.ToolRunner;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tiered storage on HDFS under two brokers in JVMs of their own (so one can be killed), with YARN beside HDFS
 * (MiniHadoop), all the scenarios on one cluster start, each on a topic of its own: copy, local retention, Kafka's
 * tools on the copies and consumers reading from offset 0; remote retention and DeleteRecords; a leader killed
 * mid-copy; a corrupt copy; a follower restarting at the leader's local log start with the producer state of the
 * remote segment below it; the loader reading tiered segments straight from HDFS, with the brokers down (on YARN,
 * next to the blocks), mixed with broker reads, and through the brokers alone.
 * Segments of 16 KiB, local retention of 32 KiB, the remote log tasks every 300 ms. The copy, handover and fencing
 * rules are tested fast, over the local filesystem, in {@link RemoteLogManagerTest}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class TieredStorageIT {
    private static final int SEGMENT_BYTES = 16 * 1024;
    private static final int VALUE_BYTES = 200;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static MiniHadoop hadoop;
    private static FileSystem fs;
    private static String root;
    private static ManifestStore manifests;
    private static TestCluster cluster;
    private static Admin admin;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        hadoop = MiniHadoop.start(dir);
        fs = FileSystem.get(java.net.URI.create(hadoop.hdfsUri()), hadoop.clientConf());
        root = hadoop.hdfsUri() + "/tiered";
        manifests = new ManifestStore(fs, new TieredLayout(new org.apache.hadoop.fs.Path(root)));
        cluster = TestCluster.start(dir, 2, Map.of(
                LogConfig.REMOTE_LOG_STORAGE_SYSTEM_ENABLE, "true",
                RemoteLogConfig.REMOTE_LOG_STORAGE_HDFS_URI, root,
                RemoteLogConfig.REMOTE_LOG_MANAGER_TASK_INTERVAL_MS, "300",
                LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS, "300",
                BrokerConfig.AUTO_CREATE_TOPICS_ENABLE, "false"));
        admin = Clients.admin(cluster.bootstrapServers());
    }

    @AfterAll
    static void stop() throws Exception {
        if (admin != null) {
            admin.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (hadoop != null) {
            hadoop.close();
        }
    }

    @Test
    @Order(1)
    void theLeaderCopiesSegmentsKafkasToolsReadLocalRetentionDeletesOnlyCopiesAndConsumersReadFromZero(@TempDir Path local)
            throws Exception {
        String topic = "copied";
        createTopic(topic, List.of(0, 1), Map.of());
        int count = produce(topic, 256 * 1024);

        PartitionManifest manifest = awaitCopiedBeyond(topic, count / 2);
        long firstLocal = manifest.segments().get(3).endOffset();
        // Both replicas keep the local retention and what is not copied yet: the follower reads what is copied too.
        Awaitility.await("local retention on both replicas").atMost(WAIT).until(() ->
                offset(topic, OffsetSpec.earliestLocal()) >= firstLocal
                        && Math.max(localBytes(topic, 0), localBytes(topic, 1)) < count * (long) VALUE_BYTES / 2);

        assertThat(offset(topic, OffsetSpec.earliest())).as("the whole log starts in remote storage").isZero();
        assertContiguousFromZero(manifest);
        assertThat(copyFolders(topic)).as("nothing but listed copies").containsAll(locations(manifest));
        assertReadFromZero(topic, count);

        ManifestSegment first = manifest.segments().get(0);
        fs.copyToLocalFile(manifests.layout().copyDir(topic, 0, first.location()), new org.apache.hadoop.fs.Path(local.toUri()));
        Path files = local.resolve(first.location());
        assertThat(Files.list(files).map(f -> f.getFileName().toString()).toList()).contains(
                SegmentFile.LOG.fileName(first), SegmentFile.OFFSET_INDEX.fileName(first),
                SegmentFile.TIME_INDEX.fileName(first), "leader-epoch-checkpoint");
        assertThat(Files.readString(files.resolve("leader-epoch-checkpoint"))).startsWith("0\n1\n0 0\n");
        String dump = KafkaTools.dumpLogSegments(files.resolve(SegmentFile.LOG.fileName(first)),
                files.resolve(SegmentFile.OFFSET_INDEX.fileName(first)), files.resolve(SegmentFile.TIME_INDEX.fileName(first)));
        assertThat(dump).contains("isvalid: true", "baseOffset: 0 ").doesNotContain("Mismatches in", "Exception",
                "isvalid: false", "Non-consecutive offsets");
    }

    @Test
    @Order(2)
    void remoteRetentionDeletesWholeCopiesAndDeleteRecordsMovesTheStartInRemoteStorage() throws Exception {
        String topic = "expiring";
        createTopic(topic, List.of(1, 0), Map.of(LogConfig.RETENTION_BYTES, String.valueOf(8 * SEGMENT_BYTES)));
        int count = produce(topic, 256 * 1024);

        // The whole log (copies and local segments not copied yet) above retention.bytes: the oldest copies go.
        awaitCopiedBeyond(topic, count - 3L * SEGMENT_BYTES / VALUE_BYTES);
        PartitionManifest manifest = Awaitility.await("copies within retention.bytes").atMost(WAIT)
                .until(() -> manifests.read(topic, 0), m -> m.segments().stream().mapToLong(ManifestSegment::sizeInBytes).sum()
                        <= 8L * SEGMENT_BYTES);
        assertThat(manifest.segments()).hasSizeGreaterThan(2);
        assertThat(offset(topic, OffsetSpec.earliest())).isPositive().isEqualTo(manifest.startOffset());
        Awaitility.await("the expired copies gone from HDFS").atMost(WAIT).until(() ->
                copyFolders(topic).equals(new HashSet<>(locations(manifests.read(topic, 0)))));

        long inRemote = manifest.segments().get(1).startOffset() + 1;
        admin.deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(inRemote))).all().get();
        assertThat(offset(topic, OffsetSpec.earliest())).isEqualTo(inRemote);
        Awaitility.await("the copies wholly below the new start deleted").atMost(WAIT).until(() -> {
            PartitionManifest now = manifests.read(topic, 0);
            return now.logStartOffset() >= inRemote && now.segments().stream().allMatch(copy -> copy.endOffset() > inRemote);
        });
        try (var consumer = Clients.consumer(cluster.bootstrapServers())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(topic, 0)));
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            Awaitility.await("the first record after DeleteRecords").atMost(WAIT)
                    .until(() -> consumer.poll(Duration.ofMillis(200)).records(new TopicPartition(topic, 0)), r -> !r.isEmpty())
                    .forEach(records::add);
            assertThat(records.get(0).offset()).isEqualTo(inRemote);
            assertThat(records.get(0).value()).isEqualTo(value(inRemote));
        }
    }

    @Test
    @Order(3)
    void aLeaderKilledMidCopyLeavesNothingHalfListedAndTheNextLeaderGoesOnWithNoGapAndNoOverlap() throws Exception {
        String topic = "killed";
        createTopic(topic, List.of(1, 0), Map.of(LogConfig.REMOTE_LOG_COPY_DISABLE, "true"));
        int count = produce(topic, 256 * 1024);
        cluster.awaitFullIsr(admin, topic, 0, WAIT);

        setCopying(topic, true);
        Awaitility.await("a copy not listed yet").atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> {
            PartitionManifest listed = manifests.read(topic, 0);
            Set<String> folders = copyFolders(topic);
            folders.removeAll(locations(listed));
            return listed.segments().size() >= 2 && !folders.isEmpty();
        });
        int copiedByBroker1 = manifests.read(topic, 0).segments().size();
        cluster.broker(1).kill();

        PartitionManifest manifest = awaitCopiedBeyond(topic, count - 3L * SEGMENT_BYTES / VALUE_BYTES);
        assertThat(manifest.leaderEpoch()).as("written by the next leader").isPositive();
        assertThat(manifest.segments()).as("copies of both leaders").hasSizeGreaterThan(copiedByBroker1);
        assertContiguousFromZero(manifest);
        Awaitility.await("the half-made copy deleted, nothing but listed copies").atMost(WAIT).until(() ->
                copyFolders(topic).equals(new HashSet<>(locations(manifests.read(topic, 0)))));
        cluster.broker(1).restart(); // it catches up from broker 0's local log start
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
        assertReadFromZero(topic, count);
    }

    @Test
    @Order(4)
    void aCorruptCopyIsRefusedWithAClearErrorAndNeverServed() throws Exception {
        String topic = "corrupt";
        createTopic(topic, List.of(0, 1), Map.of());
        int count = produce(topic, 256 * 1024);
        PartitionManifest manifest = awaitCopiedBeyond(topic, count / 2);
        long firstLocal = manifest.segments().get(2).endOffset();
        Awaitility.await("offset 0 in remote storage only").atMost(WAIT)
                .until(() -> offset(topic, OffsetSpec.earliestLocal()) >= firstLocal);

        org.apache.hadoop.fs.Path copy = manifests.layout().file(topic, 0, manifest.segments().get(0), SegmentFile.LOG);
        byte[] bytes;
        try (var in = fs.open(copy)) {
            bytes = in.readAllBytes();
        }
        bytes[100] ^= 0x01; // a record of the first batch, under its CRC
        try (var out = fs.create(copy, true)) {
            out.write(bytes);
        }

        TopicPartition tp = new TopicPartition(topic, 0);
        try (var consumer = Clients.consumer(cluster.bootstrapServers())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<ConsumerRecord<byte[], byte[]>> served = new ArrayList<>();
            Throwable refusal = Awaitility.await("the refusal").atMost(WAIT).until(() -> {
                try {
                    consumer.poll(Duration.ofMillis(200)).forEach(served::add);
                    return null;
                } catch (KafkaException e) {
                    return e;
                }
            }, java.util.Objects::nonNull);
            assertThat(refusal).hasMessageContaining("corrupt message when fetching offset 0");
            assertThat(served).as("nothing of the corrupt copy").isEmpty();

            consumer.seek(tp, firstLocal);
            List<ConsumerRecord<byte[], byte[]>> local = Awaitility.await("the local part still served").atMost(WAIT)
                    .until(() -> consumer.poll(Duration.ofMillis(200)).records(tp), records -> !records.isEmpty());
            assertThat(local.get(0).offset()).isEqualTo(firstLocal);
        }
        int leader = TestCluster.leaderOf(admin, topic, 0);
        assertThat(Files.readString(cluster.broker(leader).output())).contains("The remote copy "
                + manifest.segments().get(0).location() + " of " + topic + "-0 is corrupt: the batch at offset 0 fails its CRC");
    }

    @Test
    @Order(5)
    void theLoaderReadsTieredSegmentsFromHdfsWithTheBrokersDownOnYarnNextToTheBlocksThenTheRestThroughTheBrokers(
            @TempDir Path work) throws Exception {
        String topic = "loaded";
        createTopic(topic, List.of(0, 1), Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(8 * SEGMENT_BYTES),
                LogConfig.LOCAL_RETENTION_BYTES, String.valueOf(16 * SEGMENT_BYTES)));
        int count = produce(topic, 640 * 1024);
        awaitCopiedBeyond(topic, count / 2);
        String output = hadoop.hdfsUri() + "/lake";
        List<String> brokers = List.of("--bootstrap-server", cluster.bootstrapServers(), "--topic", topic, "--output", output);
        List<String> load = prefixed(brokers, "-D", "tributary.consumer.default.api.timeout.ms=5000", "-D",
                "tributary.consumer.request.timeout.ms=3000", "--tiered-storage", root);
        cluster.broker(0).terminate();
        cluster.broker(1).terminate();
        long tieredEnd = manifests.read(topic, 0).endOffset();

        LoaderCommand.Result onYarn = new LoaderCommand(work).env("HADOOP_CONF_DIR", hadoop.clientConfDir().toString())
                .loader(prefixed(load, "-D", "tributary.split.max.records=1000"));

        assertThat(onYarn.exitCode()).as(onYarn.output()).isZero();
        int maps = Integer.parseInt(onYarn.stdout().replaceAll("(?s).*map tasks: (\\d+).*", "$1"));
        assertThat(onYarn.stdout()).contains(topic + "-0: the brokers are unreachable: loading what tiered storage holds, up to offset "
                + tieredEnd, "loaded " + tieredEnd + " records", "data-local map tasks: " + maps + "\n",
                "lag: unknown (the brokers are unreachable)");
        assertThat(maps).as("a map per 1000 offsets").isGreaterThan(1);
        assertOffsetsOnce(output, topic, tieredEnd);

        cluster.broker(0).restart();
        cluster.broker(1).restart();
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
        int total = count + produce(topic, 384 * 1024);
        awaitCopiedBeyond(topic, tieredEnd + 8L * SEGMENT_BYTES / VALUE_BYTES); // more tiered than the first run loaded
        String mixed = loadInThisJvm(load);
        assertThat(mixed).contains("of them from tiered storage", "loaded " + (total - tieredEnd) + " records")
                .doesNotContain("unreachable");
        assertOffsetsOnce(output, topic, total);

        int more = produce(topic, 64 * 1024);
        String brokersOnly = loadInThisJvm(brokers);
        assertThat(brokersOnly).contains("loaded " + more + " records").doesNotContain("tiered storage");
        assertOffsetsOnce(output, topic, total + more);
    }

    /** The loader on Hadoop's local job runner in this JVM (no cluster configuration); what it printed. */
    private static String loadInThisJvm(List<String> args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = ToolRunner.run(new org.apache.hadoop.conf.Configuration(), new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8), System.err),
                args.toArray(String[]::new));
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static List<String> prefixed(List<String> args, String... first) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(args);
        return all;
    }

    /** The dataset holds offsets {@code [0, end)} of partition 0, each once. */
    @Test
    @Order(6)
    void aFollowerRestartingAtTheLeadersLocalStartKnowsTheProducersWhoseLastWritesAreRemote() throws Exception {
        String topic = "producers";
        createTopic(topic, List.of(0, 1), Map.of());
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
        cluster.broker(1).terminate(); // out of the ISR, its log ends at 0
        PartitionProduceResponse last;
        long producerId;
        short epoch;
        try (RawConnection raw = new RawConnection("127.0.0.1", port(cluster.broker(0)))) {
            InitProducerIdResponseData producer = ((InitProducerIdResponse) raw.request(ApiKeys.INIT_PRODUCER_ID, (short) 4,
                    new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(60_000))).data();
            producerId = producer.producerId();
            epoch = producer.producerEpoch();
            produceBatch(raw, topic, producerId, epoch, 0);
            last = produceBatch(raw, topic, producerId, epoch, 2);
        }
        assertThat(last.errorCode()).isZero();
        produce(topic, 96 * 1024);
        Awaitility.await("the producer's writes only in remote storage").atMost(WAIT)
                .until(() -> offset(topic, OffsetSpec.earliestLocal()) > last.baseOffset() + 1);

        cluster.broker(1).restart(); // restarts its log at broker 0's local log start
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
        cluster.broker(0).terminate();
        Awaitility.await("broker 1 leads").atMost(WAIT).until(() -> TestCluster.leaderOf(admin, topic, 0) == 1);
        long end = offset(topic, OffsetSpec.latest());
        try (RawConnection raw = new RawConnection("127.0.0.1", port(cluster.broker(1)))) {
            PartitionProduceResponse retry = produceBatch(raw, topic, producerId, epoch, 2);
            assertThat(retry.errorCode()).isZero();
            assertThat(retry.baseOffset()).as("the retry answered as a duplicate of the batch").isEqualTo(last.baseOffset());
        } finally {
            cluster.broker(0).restart();
        }
        assertThat(offset(topic, OffsetSpec.latest())).as("nothing appended again").isEqualTo(end);
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
    }

    /** A batch of two records of an idempotent producer, from {@code sequence} on, to partition 0 (acks=all). */
    private static PartitionProduceResponse produceBatch(RawConnection raw, String topic, long producerId, short epoch,
            int sequence) throws Exception {
        MemoryRecords batch = MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, epoch, sequence,
                new SimpleRecord(value(sequence)), new SimpleRecord(value(sequence + 1)));
        ProduceResponse response = (ProduceResponse) raw.request(ApiKeys.PRODUCE, (short) 9,
                Requests.produce(topic, (short) -1, batch));
        return response.data().responses().iterator().next().partitionResponses().get(0);
    }

    private static int port(BrokerProcess broker) {
        String address = broker.bootstrapServers();
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    private static void assertOffsetsOnce(String output, String topic, long end) throws Exception {
        java.util.BitSet offsets = Datasets.offsetsByPartition(new org.apache.hadoop.fs.Path(output), topic, hadoop.clientConf()).get(0);
        assertThat(offsets.cardinality()).isEqualTo(end);
        assertThat(offsets.nextClearBit(0)).isEqualTo(end);
    }

    private static long localBytes(String topic, int broker) throws Exception {
        return admin.describeLogDirs(List.of(broker)).allDescriptions().get().get(broker).values().stream()
                .flatMap(dir -> dir.replicaInfos().entrySet().stream())
                .filter(e -> e.getKey().topic().equals(topic)).mapToLong(e -> e.getValue().size()).sum();
    }

    /** A consumer from offset 0 gets every record once, in order: what was produced. */
    private static void assertReadFromZero(String topic, int count) {
        List<ConsumerRecord<byte[], byte[]>> records = Records.readAll(cluster.bootstrapServers(), topic, WAIT);
        assertThat(records).hasSize(count);
        for (ConsumerRecord<byte[], byte[]> record : records) {
            assertThat(record.value()).as("offset %d", record.offset()).isEqualTo(value(record.offset()));
        }
    }

    private static void createTopic(String topic, List<Integer> replicas, Map<String, String> overrides) throws Exception {
        Map<String, String> configs = new java.util.HashMap<>(Map.of(
                LogConfig.REMOTE_STORAGE_ENABLE, "true",
                LogConfig.SEGMENT_BYTES, String.valueOf(SEGMENT_BYTES),
                LogConfig.LOCAL_RETENTION_BYTES, String.valueOf(2 * SEGMENT_BYTES)));
        configs.putAll(overrides);
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, replicas)).configs(configs))).all().get();
    }

    private static void setCopying(String topic, boolean on) throws Exception {
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(new AlterConfigOp(
                new ConfigEntry(LogConfig.REMOTE_LOG_COPY_DISABLE, String.valueOf(!on)), AlterConfigOp.OpType.SET)))).all().get();
    }

    /** Produces about {@code bytes} of records "0", "1", ... padded to 200 bytes; returns how many. */
    private static int produce(String topic, int bytes) throws Exception {
        int count = bytes / VALUE_BYTES;
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(),
                Map.of("linger.ms", 5, "batch.size", 4096))) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, value(i)));
            }
            producer.flush();
        }
        return count;
    }

    static byte[] value(long i) {
        StringBuilder value = new StringBuilder(Long.toString(i));
        while (value.length() < VALUE_BYTES) {
            value.append('.');
        }
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static long offset(String topic, OffsetSpec spec) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        return admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get().offset();
    }

    private static PartitionManifest awaitCopiedBeyond(String topic, long offset) {
        return Awaitility.await(topic + " copied beyond " + offset).atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> manifests.read(topic, 0), manifest -> manifest.endOffset() > offset);
    }

    /** Every offset from 0 to the end served by exactly one listed copy. */
    private static void assertContiguousFromZero(PartitionManifest manifest) {
        long next = 0;
        for (ManifestSegment segment : manifest.segments()) {
            assertThat(segment.startOffset()).as("copy %s", segment.location()).isEqualTo(next);
            next = segment.endOffset();
        }
        assertThat(next).isEqualTo(manifest.endOffset());
    }

    private static List<String> locations(PartitionManifest manifest) {
        return manifest.segments().stream().map(ManifestSegment::location).toList();
    }

    private static Set<String> copyFolders(String topic) throws java.io.IOException {
        Set<String> folders = new HashSet<>();
        for (FileStatus status : fs.listStatus(manifests.layout().partitionDir(topic, 0))) {
            if (TieredLayout.baseOffsetOf(status.getPath().getName()).isPresent()) {
                folders.add(status.getPath().getName());
            }
        }
        return folders;
    }
}
