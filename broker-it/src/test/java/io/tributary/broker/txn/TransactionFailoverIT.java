package io.tributary.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers (child JVMs, SIGKILLed), replication factor 3 for the transactions' own topics and
 * {@code __transaction_state}, the 4.4 Java producer (transaction version 2) and read_committed consumers:
 * <ul>
 *   <li>the leader of a transaction's partition is killed in the middle of the transaction: the new leader (which kept
 *       the open transaction in its producer state through replication) holds read_committed readers at the
 *       transaction's first offset, takes the rest of it and the coordinator's marker; the committed records are then
 *       seen exactly once, and a transaction aborted afterwards never;</li>
 *   <li>the transaction coordinator is killed mid-transaction: the new leader of its {@code __transaction_state}
 *       partition loads the open transaction, so the producer goes on and commits;</li>
 *   <li>the coordinator is killed after it wrote PrepareCommit (and PrepareAbort) and before the markers are all
 *       written, deterministically: one of the transactions' partitions has its only replica on a broker killed before
 *       EndTxn, so its marker cannot be written until that broker is back. The new coordinator finishes the decisions:
 *       read_committed consumers see exactly the committed records, and the producers go on;</li>
 *   <li>a Kafka Streams application with exactly_once_v2 counts exactly through the SIGKILL of an instance.</li>
 * </ul>
 * One cluster serves every test; each leaves all three brokers running.
 */
@Timeout(300)
class TransactionFailoverIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int STATE_PARTITIONS = 3;
    private static TestCluster cluster;
    private static Admin admin;

    @BeforeAll
    static void startCluster(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of(
                BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                BrokerConfig.REPLICA_LAG_TIME_MAX_MS, "5000",
                BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS, Integer.toString(STATE_PARTITIONS),
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3",
                // A killed Streams instance leaves its transaction open until its timeout (10 s): abort it soon after.
                BrokerConfig.TRANSACTION_ABORT_TIMED_OUT_CLEANUP_INTERVAL_MS, "1000"));
        admin = Clients.admin(cluster.bootstrapServers());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (admin != null) {
            admin.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Every broker a test killed runs again before the next test. */
    @AfterEach
    void restartKilled() throws Exception {
        for (int id = 0; id < cluster.size(); id++) {
            if (!cluster.broker(id).isAlive()) {
                cluster.broker(id).restart();
            }
        }
    }

    private static KafkaProducer<byte[], byte[]> patientProducer(String transactionalId) {
        KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(), Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000));
        producer.initTransactions();
        return producer;
    }

    private static void createReplicated(String topic) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 3))).all().get();
        cluster.awaitFullIsr(admin, topic, 0, TIMEOUT);
    }

    private static List<String> send(KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int count)
            throws Exception {
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, (prefix + i).getBytes())).get();
            sent.add(prefix + i);
        }
        return sent;
    }

    private static void assertCommittedExactly(TopicPartition partition, List<String> expected) {
        try (KafkaConsumer<byte[], byte[]> consumer = CommittedReads.readCommittedConsumer(cluster.bootstrapServers(), Map.of())) {
            assertThat(CommittedReads.readFromStart(consumer, partition, expected.size())).isEqualTo(expected);
            assertThat(consumer.poll(Duration.ofSeconds(2))).isEmpty();
        }
    }

    private static int coordinatorOf(String transactionalId) throws Exception {
        return admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get().coordinatorId();
    }

    private static TransactionState stateOf(String transactionalId) throws Exception {
        return admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get().state();
    }

    private static final List<String> TEN = List.of("before-0", "before-1", "before-2", "before-3", "before-4",
            "after-0", "after-1", "after-2", "after-3", "after-4");

    @Test
    void theCoordinatorKilledMidTransactionIsReplacedAndTheTransactionCommits() throws Exception {
        String topic = "coordinator-moves";
        createReplicated(topic);
        String id = "coordinator-moves";
        try (KafkaProducer<byte[], byte[]> producer = patientProducer(id)) {
            producer.beginTransaction();
            send(producer, topic, "before-", 5);
            int coordinator = coordinatorOf(id);
            BrokerProcess killed = cluster.broker(coordinator);
            killed.kill();
            await("a new coordinator of " + id).atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> coordinatorOf(id) != coordinator);
            send(producer, topic, "after-", 5);
            producer.commitTransaction();
            killed.restart();
        }
        cluster.awaitFullIsr(admin, topic, 0, TIMEOUT);
        assertCommittedExactly(new TopicPartition(topic, 0), TEN);
    }

    @Test
    void aLeaderKilledMidTransactionLosesNothingCommittedAndShowsNothingAborted() throws Exception {
        String topic = "leader-moves";
        createReplicated(topic);
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = patientProducer("across-failover")) {
            producer.beginTransaction();
            send(producer, topic, "before-", 5);
            cluster.awaitFullIsr(admin, topic, 0, TIMEOUT);
            int leader = TestCluster.leaderOf(admin, topic, 0);
            BrokerProcess killed = cluster.broker(leader);
            killed.kill();
            await("a new leader after broker " + leader + " was killed").atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        int now = TestCluster.leaderOf(admin, topic, 0);
                        return now >= 0 && now != leader;
                    });
            await().atMost(TIMEOUT).ignoreExceptions()
                    .until(() -> CommittedReads.lastStableOffset(cluster.bootstrapServers(), partition) == 0);

            send(producer, topic, "after-", 5);
            producer.commitTransaction();
            producer.beginTransaction();
            send(producer, topic, "aborted-", 3);
            producer.abortTransaction();
            killed.restart();
        }
        cluster.awaitFullIsr(admin, topic, 0, TIMEOUT);
        assertCommittedExactly(partition, TEN);
    }

    /**
     * Two transactions of ids with the same coordinator write to a replicated partition and to one whose only replica
     * is on broker {@code held}, which is killed before their EndTxns: the coordinator writes the decisions
     * (PrepareCommit of one, PrepareAbort of the other; the ISR of {@code __transaction_state} without {@code held}
     * suffices) and the replicated partition's markers, but not the other partition's, so both stay decided and
     * incomplete until the coordinator is killed. {@code held} then comes back and the new coordinator completes both:
     * read_committed readers see exactly the committed records, and both producers go on.
     */
    @Test
    void aCoordinatorKilledBetweenItsDecisionsAndTheirMarkersIsReplacedByOneThatCompletesThem() throws Exception {
        String replicated = "prepared-replicated";
        String single = "prepared-single";
        String committer = "prepared-commit";
        String aborter = sameCoordinatorAs(committer);
        createReplicated(replicated);
        try (KafkaProducer<byte[], byte[]> committing = patientProducer(committer);
             KafkaProducer<byte[], byte[]> aborting = patientProducer(aborter)) {
            int coordinator = coordinatorOf(committer);
            int held = (coordinator + 1) % cluster.size();
            admin.createTopics(List.of(new NewTopic(single, Map.of(0, List.of(held)))
                    .configs(Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1")))).all().get();
            await().atMost(TIMEOUT).until(() -> TestCluster.leaderOf(admin, single, 0) == held);

            committing.beginTransaction();
            List<String> committedReplicated = send(committing, replicated, "committed-", 5);
            List<String> committedSingle = send(committing, single, "committed-", 5);
            aborting.beginTransaction();
            send(aborting, replicated, "aborted-", 5);
            send(aborting, single, "aborted-", 5);
            cluster.broker(held).kill();
            committing.commitTransaction();
            aborting.abortTransaction();
            assertThat(stateOf(committer)).as("decided; a marker cannot be written while broker " + held + " is down")
                    .isEqualTo(TransactionState.PREPARE_COMMIT);
            assertThat(stateOf(aborter)).isEqualTo(TransactionState.PREPARE_ABORT);
            TopicPartition replicatedPartition = new TopicPartition(replicated, 0);
            await("both markers in " + replicated).atMost(TIMEOUT).ignoreExceptions().until(() ->
                    CommittedReads.lastStableOffset(cluster.bootstrapServers(), replicatedPartition) == 12);
            assertThat(stateOf(committer)).isEqualTo(TransactionState.PREPARE_COMMIT);
            assertThat(stateOf(aborter)).isEqualTo(TransactionState.PREPARE_ABORT);

            cluster.broker(coordinator).kill();
            cluster.broker(held).restart();
            await("the new coordinator completes both").atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> coordinatorOf(committer) != coordinator && stateOf(committer) == TransactionState.COMPLETE_COMMIT
                            && stateOf(aborter) == TransactionState.COMPLETE_ABORT);
            cluster.broker(coordinator).restart();
            TopicPartition singlePartition = new TopicPartition(single, 0);
            await("both markers in " + single).atMost(TIMEOUT).ignoreExceptions().until(() ->
                    CommittedReads.lastStableOffset(cluster.bootstrapServers(), singlePartition) == 12);

            List<String> expected = new ArrayList<>(committedReplicated);
            for (KafkaProducer<byte[], byte[]> producer : List.of(committing, aborting)) {
                producer.beginTransaction();
                expected.addAll(send(producer, replicated, producer == committing ? "next-" : "after-abort-", 2));
                producer.commitTransaction();
            }
            assertCommittedExactly(replicatedPartition, expected);
            assertCommittedExactly(singlePartition, committedSingle);
        }
    }

    /** A transactional id coordinated by the same {@code __transaction_state} partition as {@code transactionalId}. */
    private static String sameCoordinatorAs(String transactionalId) {
        int wanted = Utils.abs(transactionalId.hashCode()) % STATE_PARTITIONS;
        for (int i = 0; ; i++) {
            String candidate = transactionalId + "-peer-" + i;
            if (Utils.abs(candidate.hashCode()) % STATE_PARTITIONS == wanted) {
                return candidate;
            }
        }
    }

    private static final int WORDS = 10;
    private static final int FIRST_INPUT = 500;
    private static final int ALL_INPUT = 3000;

    /**
     * A Kafka Streams 4.4 application ({@link WordCountApp}: a repartition and a count) with exactly_once_v2: its
     * instance, in a JVM of its own, is SIGKILLed while input flows and it is committing every 100 ms, and a second
     * instance takes over (once the first leaves the group and its open transaction is aborted). The counts written,
     * read_committed, rise for each word and end exactly at the number of times it was written: nothing the killed
     * instance processed counts twice, nothing is lost.
     */
    @Test
    void kafkaStreamsExactlyOnceCountsExactlyThroughTheKillOfAnInstance(@TempDir Path work) throws Exception {
        String input = "streams-words";
        String output = "streams-word-counts";
        String application = "word-counter";
        admin.createTopics(List.of(new NewTopic(input, 3, (short) 3), new NewTopic(output, 3, (short) 3))).all().get();
        ExecutorService feeder = Executors.newSingleThreadExecutor();
        CountDownLatch firstCounted = new CountDownLatch(1);
        AtomicInteger fed = new AtomicInteger();
        Process first = null;
        try (KafkaStreams second = new KafkaStreams(WordCountApp.topology(input, output),
                WordCountApp.config(cluster.bootstrapServers(), application, work.resolve("second")));
             WordCounts counts = new WordCounts(output)) {
            Future<?> feeding = feeder.submit(() -> feed(input, firstCounted, fed));
            first = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                    "-cp", System.getProperty("java.class.path"), WordCountApp.class.getName(), cluster.bootstrapServers(),
                    application, work.resolve("first").toString(), input, output)
                    .redirectErrorStream(true).redirectOutput(work.resolve("first.log").toFile()).start();
            Process running = first;
            await("some counts of the first instance").atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
                    .until(() -> running.isAlive() && counts.poll() > 0);
            firstCounted.countDown();
            await("more input while the first instance runs").atMost(TIMEOUT).until(() -> fed.get() >= FIRST_INPUT + 500);
            first.destroyForcibly().waitFor();
            assertThat(fed.get()).as("killed while input flows").isLessThan(ALL_INPUT);

            second.start();
            feeding.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            await("the counts of all " + ALL_INPUT + " words").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> counts.poll() == ALL_INPUT);
            assertThat(counts.latest()).hasSize(WORDS).allSatisfy((word, count) -> assertThat(count).isEqualTo(ALL_INPUT / WORDS));
            assertThat(counts.steps()).as("each word's counts, in the order written").allSatisfy((word, steps) ->
                    assertThat(steps).as(word).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates());
        } finally {
            if (first != null) {
                first.destroyForcibly();
            }
            feeder.shutdownNow();
        }
    }

    /**
     * Writes {@value #ALL_INPUT} words, {@value #WORDS} different ones in turn: {@value #FIRST_INPUT} at once, the rest
     * once {@code started} (the first instance has counted), 100 every 100 ms, so that it is killed with work to do.
     */
    private static Void feed(String topic, CountDownLatch started, AtomicInteger fed) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(), Map.of())) {
            for (int i = 0; i < ALL_INPUT; i++) {
                producer.send(new ProducerRecord<>(topic, ("word-" + i % WORDS).getBytes()));
                if (i + 1 == FIRST_INPUT) {
                    producer.flush();
                    fed.set(i + 1);
                    if (!started.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the first instance never counted");
                    }
                } else if (i % 100 == 99) {
                    producer.flush();
                    fed.set(i + 1);
                    Thread.sleep(100); // pacing, not a wait for something: a steady flow
                }
            }
        }
        return null;
    }

    /** The counts the application wrote, read_committed from the start: each word's latest, and all in order. */
    private static final class WordCounts implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final Map<String, List<Long>> steps = new java.util.TreeMap<>();

        WordCounts(String topic) {
            consumer = CommittedReads.readCommittedConsumer(cluster.bootstrapServers(), Map.of());
            List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1),
                    new TopicPartition(topic, 2));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }

        /** Reads what came; returns the sum of the latest counts. */
        long poll() {
            consumer.poll(Duration.ofMillis(100)).forEach(record -> steps.computeIfAbsent(new String(record.key()),
                    word -> new ArrayList<>()).add(java.nio.ByteBuffer.wrap(record.value()).getLong()));
            return latest().values().stream().mapToLong(Long::longValue).sum();
        }

        Map<String, Long> latest() {
            Map<String, Long> latest = new java.util.TreeMap<>();
            steps.forEach((word, counts) -> latest.put(word, counts.get(counts.size() - 1)));
            return latest;
        }

        Map<String, List<Long>> steps() {
            return steps;
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
