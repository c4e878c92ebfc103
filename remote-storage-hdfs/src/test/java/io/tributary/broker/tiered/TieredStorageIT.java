package io.tributary.broker.tiered;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.remote.RemoteLogConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
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
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.internals.Topic;
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
 * remote segment below it, then leading: retries of remote batches, an aborted transaction spanning its restart point
 * (read_committed from offset 0, the last stable offset of one still open) and the leader epochs below it
 * (OffsetForLeaderEpoch, a consumer's validation); a follower that cannot restart from a damaged copy; the loader
 * reading tiered segments straight from HDFS, with the brokers down (on YARN, next to the blocks), mixed with broker
 * reads, and through the brokers alone. The transaction state topic has both brokers (and one in sync suffices).
 * Segments of 16 KiB, local retention of 32 KiB, the remote log tasks every 300 ms. The copy, handover and fencing
 * rules are tested fast, over the local filesystem, in {@link RemoteLogManagerTest}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class TieredStorageIT {
    private static final int SEGMENT_BYTES = 16 * 1024;
    private static final int VALUE_BYTES = 200;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static Path clusterDir;
    private static MiniHadoop hadoop;
    private static FileSystem fs;
    private static String root;
    private static ManifestStore manifests;
    private static TestCluster cluster;
    private static Admin admin;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        clusterDir = dir;
        hadoop = MiniHadoop.start(dir);
        fs = FileSystem.get(java.net.URI.create(hadoop.hdfsUri()), hadoop.clientConf());
        root = hadoop.hdfsUri() + "/tiered";
        manifests = new ManifestStore(fs, new TieredLayout(new org.apache.hadoop.fs.Path(root)));
        cluster = TestCluster.start(dir, 2, Map.of(
                LogConfig.REMOTE_LOG_STORAGE_SYSTEM_ENABLE, "true",
                RemoteLogConfig.REMOTE_LOG_STORAGE_HDFS_URI, root,
                RemoteLogConfig.REMOTE_LOG_MANAGER_TASK_INTERVAL_MS, "300",
                LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS, "300",
                BrokerConfig.TRANSACTION_STATE_LOG_REPLICATION_FACTOR, "2",
                BrokerConfig.TRANSACTION_STATE_LOG_MIN_ISR, "1",
                BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS, "1",
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

        // The whole log (copies and the local segments not copied yet) above retention.bytes: the oldest copies go, as
        // long as what is left without them still holds retention.bytes (Kafka's rule, so the log may exceed it by less
        // than a segment). Waited for once every closed segment is copied, so that nothing expires after this.
        PartitionManifest manifest = awaitRemoteRetentionDone(topic, 8L * SEGMENT_BYTES);
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

    @Test
    @Order(7)
    void anAbortedTransactionSpanningAFollowersRestartPointStaysAbortedOnceThatFollowerLeadsAndCopies() throws Exception {
        String topic = "aborted";
        TopicPartition tp = new TopicPartition(topic, 0);
        createTopic(topic, List.of(0, 1), Map.of());
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
        List<String> committed = new ArrayList<>(); // what read_committed consumers must read, in offset order
        List<Long> aborted = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> spanning = transactionalProducer("spanning");
             KafkaProducer<byte[], byte[]> holding = transactionalProducer("holding");
             KafkaProducer<byte[], byte[]> plain = Clients.producer(cluster.bootstrapServers(),
                     Map.of("linger.ms", 5, "batch.size", 4096))) {
            spanning.initTransactions(); // the transaction state topic gets both brokers
            holding.initTransactions();
            cluster.awaitFullIsr(admin, Topic.TRANSACTION_STATE_TOPIC_NAME, 0, WAIT);
            cluster.broker(1).terminate(); // its log ends here: it restarts at broker 0's local start

            // One transaction spans about six segments and is aborted. Another, opened in its middle, stays open: the last
            // stable offset, and so the copies, stop there, inside the aborted one, whose ABORT marker stays local.
            spanning.beginTransaction();
            int heldAt = -1;
            long held = -1;
            for (int step = 0; step < 12; step++) {
                aborted.add(spanning.send(record(topic, "aborted-" + step)).get().offset());
                if (step == 8) {
                    holding.beginTransaction();
                    held = holding.send(record(topic, "held")).get().offset();
                    heldAt = committed.size();
                }
                committed.addAll(send(plain, topic, "plain-" + step + "-", 40));
            }
            spanning.abortTransaction();
            spanning.beginTransaction();
            long afterAbort = spanning.send(record(topic, "committed")).get().offset();
            spanning.commitTransaction();
            committed.add("committed");
            committed.addAll(send(plain, topic, "tail-", 10));
            long localStart = Awaitility.await("broker 0's local start inside the aborted transaction").atMost(WAIT)
                    .until(() -> offset(topic, OffsetSpec.earliestLocal()), start -> start > aborted.get(1));
            assertThat(localStart).isLessThanOrEqualTo(held);

            cluster.broker(1).restart(); // restarts at broker 0's local start with the producer state of the copy below
            cluster.awaitFullIsr(admin, topic, 0, WAIT);
            cluster.awaitFullIsr(admin, Topic.TRANSACTION_STATE_TOPIC_NAME, 0, WAIT);
            cluster.broker(0).terminate();
            try {
                Awaitility.await("broker 1 leads").atMost(WAIT).until(() -> TestCluster.leaderOf(admin, topic, 0) == 1);
                assertThat(admin.listOffsets(Map.of(tp, OffsetSpec.latest()),
                        new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).partitionResult(tp).get().offset())
                        .as("the last stable offset: the open transaction's first record").isEqualTo(held);
                assertThat(readCommitted(topic, held)).as("read_committed up to the open transaction")
                        .containsExactlyElementsOf(committed.subList(0, heldAt));

                holding.commitTransaction();
                committed.add(heldAt, "held");
                // Broker 1 copies its own segments, the one with the ABORT marker among them, with its .txnindex.
                committed.addAll(send(plain, topic, "more-", 3 * SEGMENT_BYTES / VALUE_BYTES));
                long end = offset(topic, OffsetSpec.latest());
                awaitCopiedBeyond(topic, afterAbort);
                assertThat(readCommitted(topic, end)).as("read_committed from offset 0, remote part and local")
                        .containsExactlyElementsOf(committed);
            } finally {
                cluster.broker(0).restart();
            }
        }
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
    }

    private static KafkaProducer<byte[], byte[]> transactionalProducer(String id) {
        return Clients.producer(cluster.bootstrapServers(), Map.of("transactional.id", id));
    }

    @Test
    @Order(8)
    void aFollowerRestartingAtTheLeadersLocalStartKnowsTheLeaderEpochsBelowItWhenItLeads() throws Exception {
        String topic = "epochs";
        TopicPartition tp = new TopicPartition(topic, 0);
        createTopic(topic, List.of(0, 1), Map.of());
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(),
                Map.of("linger.ms", 5, "batch.size", 4096))) {
            send(producer, topic, "first-", 80);
            electPreferred(tp, List.of(1, 0));
            send(producer, topic, "second-", 80);
            electPreferred(tp, List.of(0, 1));
            send(producer, topic, "third-", 480); // the local start moves beyond the third epoch's start
        }
        NavigableMap<Integer, Long> epochStarts = epochStarts(topic);
        assertThat(epochStarts).as("three leaderships").hasSize(3);
        long end = offset(topic, OffsetSpec.latest());
        Awaitility.await("every epoch starting in remote storage only").atMost(WAIT)
                .until(() -> offset(topic, OffsetSpec.earliestLocal()) > epochStarts.lastEntry().getValue());

        // A consumer in the middle of the second epoch, in remote storage; it validates its position after a leader change.
        long position = epochStarts.higherEntry(epochStarts.firstKey()).getValue() + 10;
        try (var consumer = Clients.consumer(cluster.bootstrapServers(), Map.of("auto.offset.reset", "none",
                "max.poll.records", 5))) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, position);
            List<ConsumerRecord<byte[], byte[]>> first = Awaitility.await("the first records").atMost(WAIT)
                    .until(() -> consumer.poll(Duration.ofMillis(200)).records(tp), r -> !r.isEmpty());
            long next = first.get(first.size() - 1).offset() + 1;

            // Broker 1 loses its log and restarts at broker 0's local start, with the copy's leader-epoch checkpoint.
            cluster.broker(1).terminate();
            deleteRecursively(cluster.broker(1).output().resolveSibling("logs").resolve(tp.toString()));
            cluster.broker(1).restart();
            cluster.awaitFullIsr(admin, topic, 0, WAIT);
            cluster.broker(0).terminate();
            try {
                Awaitility.await("broker 1 leads").atMost(WAIT).until(() -> TestCluster.leaderOf(admin, topic, 0) == 1);
                try (RawConnection raw = new RawConnection("127.0.0.1", port(cluster.broker(1)))) {
                    for (Map.Entry<Integer, Long> epoch : epochStarts.entrySet()) {
                        Integer following = epochStarts.higherKey(epoch.getKey());
                        long expectedEnd = following == null ? end : epochStarts.get(following);
                        assertThat(epochEnd(raw, topic, epoch.getKey())).as("the end of epoch %d", epoch.getKey())
                                .isEqualTo(List.of((long) epoch.getKey(), expectedEnd));
                    }
                }
                List<ConsumerRecord<byte[], byte[]>> rest = new ArrayList<>();
                Awaitility.await("the consumer reads on from where it was").atMost(WAIT).until(() -> {
                    consumer.poll(Duration.ofMillis(200)).records(tp).forEach(rest::add);
                    return consumer.position(tp) >= end;
                });
                assertThat(rest.get(0).offset()).as("neither truncated nor reset").isEqualTo(next);
                assertThat(rest).extracting(ConsumerRecord::offset).doesNotHaveDuplicates().hasSize((int) (end - next));
            } finally {
                cluster.broker(0).restart();
            }
        }
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
    }

    /** Makes {@code replicas.get(0)} the preferred leader of {@code tp} and elects it. */
    private static void electPreferred(TopicPartition tp, List<Integer> replicas) throws Exception {
        admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(replicas)))).all().get();
        Awaitility.await("replicas " + replicas).atMost(WAIT)
                .until(() -> TestCluster.describe(admin, tp.topic(), tp.partition()).replicas().stream()
                        .map(org.apache.kafka.common.Node::id).toList().equals(replicas));
        admin.electLeaders(ElectionType.PREFERRED, Set.of(tp)).all().get();
        Awaitility.await("broker " + replicas.get(0) + " leads").atMost(WAIT)
                .until(() -> TestCluster.leaderOf(admin, tp.topic(), tp.partition()) == replicas.get(0));
        cluster.awaitFullIsr(admin, tp.topic(), tp.partition(), WAIT);
    }

    /** Each leader epoch of partition 0 with its first offset, as the records read from offset 0 carry them. */
    private static NavigableMap<Integer, Long> epochStarts(String topic) {
        NavigableMap<Integer, Long> starts = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> record : Records.readAll(cluster.bootstrapServers(), topic, WAIT)) {
            starts.putIfAbsent(record.leaderEpoch().orElseThrow(), record.offset());
        }
        return starts;
    }

    /** OffsetForLeaderEpoch of partition 0 for {@code epoch}, as a consumer asks it: [the epoch found, its end offset]. */
    private static List<Long> epochEnd(RawConnection raw, String topic, int epoch) throws Exception {
        OffsetForLeaderTopicCollection topics = new OffsetForLeaderTopicCollection();
        topics.add(new OffsetForLeaderTopic().setTopic(topic).setPartitions(List.of(new OffsetForLeaderPartition()
                .setPartition(0).setCurrentLeaderEpoch(-1).setLeaderEpoch(epoch))));
        var response = (OffsetsForLeaderEpochResponse) raw.request(ApiKeys.OFFSET_FOR_LEADER_EPOCH, (short) 4,
                new OffsetForLeaderEpochRequestData().setReplicaId(-1).setTopics(topics));
        var answer = response.data().topics().iterator().next().partitions().get(0);
        assertThat(answer.errorCode()).isZero();
        return List.of((long) answer.leaderEpoch(), answer.endOffset());
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        try (var files = Files.walk(dir)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    @Test
    @Order(9)
    void aFollowerThatCannotRestartFromADamagedCopyRetriesThatPartitionAloneWithAClearErrorUntilTheCopyIsRepaired()
            throws Exception {
        String topic = "damaged";
        TopicPartition damaged = new TopicPartition(topic, 0);
        TopicPartition healthy = new TopicPartition(topic, 1);
        createTopic(topic, Map.of(0, List.of(0, 1), 1, List.of(0, 1)), Map.of());
        cluster.awaitFullIsr(admin, topic, 0, WAIT);
        cluster.awaitFullIsr(admin, topic, 1, WAIT);
        cluster.broker(1).terminate();
        int count = produce(topic, 128 * 1024);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(topic, 1, null, value(i)));
            }
        }
        // Every closed segment copied (no copy in flight could come after the damage), then local retention done.
        Path leaderDir = cluster.broker(0).output().resolveSibling("logs").resolve(damaged.toString());
        Awaitility.await("every closed segment copied").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> manifests.read(topic, 0).endOffset() == activeSegmentBase(leaderDir));
        List<Long> seen = new ArrayList<>(); // broker 0's local start every 300 ms
        Awaitility.await("local retention settled").atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
            seen.add(offset(topic, OffsetSpec.earliestLocal()));
            return seen.size() >= 4 && seen.get(seen.size() - 1) > 0
                    && seen.subList(seen.size() - 4, seen.size()).stream().distinct().count() == 1;
        });
        long localStart = offset(topic, OffsetSpec.earliestLocal());
        String below = manifests.read(topic, 0).segments().stream().filter(copy -> copy.endOffset() == localStart)
                .findFirst().orElseThrow().location();
        // Every copy's producer snapshot gone: neither the copy below broker 0's local start nor the one before it has one.
        Map<org.apache.hadoop.fs.Path, byte[]> snapshots = new java.util.HashMap<>();
        for (ManifestSegment copy : manifests.read(topic, 0).segments()) {
            assertThat(copy.producerSnapshot()).as("copy %s has its producer snapshot", copy.location()).isTrue();
            org.apache.hadoop.fs.Path file = manifests.layout().file(topic, 0, copy, SegmentFile.PRODUCER_SNAPSHOT);
            try (var in = fs.open(file)) {
                snapshots.put(file, in.readAllBytes());
            }
            fs.delete(file, false);
        }

        long warningsBefore = restartWarnings(topic);
        cluster.broker(1).restart();
        cluster.awaitFullIsr(admin, topic, 1, WAIT); // the other partition replicates on
        Awaitility.await("the first try").atMost(WAIT).until(() -> restartWarnings(topic) > warningsBefore);
        // Tries 200 ms apart (replica.fetch.backoff.ms here) would warn 20 times in 4 s; each waits twice the one before.
        Awaitility.await("the damaged partition's ISR stays broker 0 alone").during(Duration.ofSeconds(4))
                .atMost(Duration.ofSeconds(10)).until(() -> TestCluster.isrOf(admin, topic, 0).equals(List.of(0)));
        assertThat(restartWarnings(topic) - warningsBefore).as("one warning per try").isBetween(3L, 7L);
        assertThat(Files.readString(cluster.broker(1).output())).contains(damaged + ": cannot restart at broker 0's local "
                + "log start " + localStart + " from the remote copy below it, trying again in ",
                "the producer snapshot " + below + "/" + String.format("%020d.snapshot", localStart) + " cannot be read");
        assertThat(readCommitted(topic, count)).as("broker 0 serves the damaged partition from offset 0")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, count).mapToObj(Integer::toString).toList());

        for (Map.Entry<org.apache.hadoop.fs.Path, byte[]> snapshot : snapshots.entrySet()) {
            try (var out = fs.create(snapshot.getKey(), false)) {
                out.write(snapshot.getValue());
            }
        }
        cluster.awaitFullIsr(admin, topic, 0, WAIT); // repaired: broker 1 restarts at broker 0's local start
        assertThat(TestCluster.isrOf(admin, healthy.topic(), healthy.partition())).containsExactlyInAnyOrder(0, 1);
    }

    /** The base offset of the newest segment in a partition folder, the active one. */
    private static long activeSegmentBase(Path partitionDir) throws java.io.IOException {
        try (var files = Files.list(partitionDir)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".log"))
                    .mapToLong(name -> Long.parseLong(name.substring(0, name.length() - ".log".length()))).max().orElseThrow();
        }
    }

    /** How many times broker 1 warned that it cannot restart partition 0 of {@code topic} from remote storage. */
    private static long restartWarnings(String topic) throws java.io.IOException {
        try (var lines = Files.lines(cluster.broker(1).output())) {
            return lines.filter(line -> line.contains(topic + "-0: cannot restart at broker")).count();
        }
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

    /** A record of {@code text} padded to 200 bytes, for partition 0. */
    private static ProducerRecord<byte[], byte[]> record(String topic, String text) {
        return new ProducerRecord<>(topic, 0, null, padded(text));
    }

    private static byte[] padded(String text) {
        return (text + ".".repeat(Math.max(0, VALUE_BYTES - text.length()))).getBytes(StandardCharsets.UTF_8);
    }

    /** Sends {@code count} records {@code prefix0}, {@code prefix1}, ... (in a transaction if one is open); their texts. */
    private static List<String> send(KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int count)
            throws Exception {
        List<String> texts = new ArrayList<>();
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            texts.add(prefix + i);
            sent.add(producer.send(record(topic, prefix + i)));
        }
        producer.flush();
        for (var future : sent) {
            future.get();
        }
        return texts;
    }

    /** The texts a read_committed consumer reads from offset 0 of partition 0 up to {@code end}, in order. */
    private static List<String> readCommitted(String topic, long end) {
        TopicPartition tp = new TopicPartition(topic, 0);
        try (var consumer = Clients.consumer(cluster.bootstrapServers(), Map.of("isolation.level", "read_committed"))) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<String> texts = new ArrayList<>();
            Awaitility.await("read_committed up to " + end).atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> texts.add(textOf(r.value())));
                return consumer.position(tp) >= end;
            });
            return texts;
        }
    }

    private static String textOf(byte[] value) {
        return new String(value, StandardCharsets.UTF_8).replaceAll("\\.+$", "");
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
        createTopic(topic, Map.of(0, replicas), overrides);
    }

    /** A tiered topic of segments of 16 KiB and a local retention of two, with {@code replicas} by partition. */
    private static void createTopic(String topic, Map<Integer, List<Integer>> replicas, Map<String, String> overrides)
            throws Exception {
        Map<String, String> configs = new java.util.HashMap<>(Map.of(
                LogConfig.REMOTE_STORAGE_ENABLE, "true",
                LogConfig.SEGMENT_BYTES, String.valueOf(SEGMENT_BYTES),
                LogConfig.LOCAL_RETENTION_BYTES, String.valueOf(2 * SEGMENT_BYTES)));
        configs.putAll(overrides);
        admin.createTopics(List.of(new NewTopic(topic, replicas).configs(configs))).all().get();
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

    /**
     * The manifest once the log start has stopped moving: retention.bytes counts the copies and the local segments not
     * copied yet, and copying goes on after the records are in, so copies within the limit can still expire a round
     * later (a DeleteRecords inside one then found its start overtaken).
     */
    /**
     * The manifest once the leader has copied every closed segment and remote retention has expired every copy the
     * log can do without: the copies and the active segment, less the oldest copy, are below {@code retentionBytes}.
     */
    private static PartitionManifest awaitRemoteRetentionDone(String topic, long retentionBytes) {
        return Awaitility.await(topic + "'s closed segments copied and its remote retention applied").atMost(WAIT)
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    PartitionManifest manifest = manifests.read(topic, 0);
                    Path active = activeSegment(topic, TestCluster.leaderOf(admin, topic, 0));
                    long copies = manifest.segments().stream().mapToLong(ManifestSegment::sizeInBytes).sum();
                    boolean allCopied = manifest.endOffset() == baseOffsetOf(active);
                    boolean oldestNeeded = !manifest.segments().isEmpty()
                            && copies + Files.size(active) - manifest.segments().get(0).sizeInBytes() < retentionBytes;
                    boolean startPublished = offset(topic, OffsetSpec.earliest()) == manifest.startOffset();
                    return allCopied && oldestNeeded && startPublished ? manifest : null;
                }, Objects::nonNull);
    }

    /** The newest local segment file of the partition's replica on {@code broker}. */
    private static Path activeSegment(String topic, int broker) throws IOException {
        try (Stream<Path> files = Files.list(clusterDir.resolve("broker-" + broker).resolve("logs").resolve(topic + "-0"))) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log"))
                    .max(Comparator.comparingLong(TieredStorageIT::baseOffsetOf)).orElseThrow();
        }
    }

    private static long baseOffsetOf(Path segmentFile) {
        String name = segmentFile.getFileName().toString();
        return Long.parseLong(name.substring(0, name.indexOf('.')));
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
