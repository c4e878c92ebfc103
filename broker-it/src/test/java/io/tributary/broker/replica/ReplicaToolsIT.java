package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.testing.AckedWriter;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.TestCluster;
import io.tributary.testkit.PrometheusScrape;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.ReplicaNotAvailableException;
import org.apache.kafka.tools.ConfigCommand;
import org.apache.kafka.tools.LeaderElectionCommand;
import org.apache.kafka.tools.LogDirsCommand;
import org.apache.kafka.tools.TopicCommand;
import org.apache.kafka.tools.reassign.ReassignPartitionsCommand;
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
 * Kafka's own replica tools (kafka-tools 4.4, each in a JVM of its own, as an operator runs them) against three
 * brokers with two log dirs each: kafka-reassign-partitions --execute --throttle / --verify under an acks=all
 * idempotent producer, between brokers and between the log dirs of one broker, kafka-leader-election (preferred, then
 * unclean, which breaks the cluster and so comes last), kafka-log-dirs and kafka-configs --entity-type brokers; on the
 * same cluster, a follower whose log fails for some partitions replicates the others on, and a consumer's position at
 * the start of a log whose older epochs were deleted stays valid after a leader change. One cluster for the class. A move between log dirs copies at most {@code replica.fetch.max.bytes} (64 KiB here) a round,
 * so that its throttle holds it back long enough to be seen in progress.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(240)
class ReplicaToolsIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Each broker's log dirs, folders of its data folder. */
    private static final List<String> LOG_DIRS = List.of("logs", "logs-b");

    @TempDir
    static Path dir;
    private static TestCluster cluster;
    private static Admin admin;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = TestCluster.start(dir, 3, Map.of(
                BrokerConfig.AUTO_LEADER_REBALANCE_ENABLE, "false",
                BrokerConfig.REPLICA_LAG_TIME_MAX_MS, "4000",
                BrokerConfig.REPLICA_FETCH_MAX_BYTES, "65536",
                LogConfig.LOG_DIRS, String.join(",", LOG_DIRS),
                BrokerConfig.HTTP_LISTENERS, "http://127.0.0.1:0"));
        // Generous: on a loaded machine the brokers' first requests can be slow.
        admin = Clients.admin(cluster.bootstrapServers(), Map.of(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000));
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

    @Test
    @Order(1)
    void reassignPartitionsUnderLoadLosesNothingAndDropsTheOldReplicas() throws Exception {
        String topic = "moving";
        // CreateTopics with an explicit replica assignment.
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(0, 1), 1, List.of(1, 2), 2, List.of(2, 0))))).all().get();
        for (int p = 0; p < 3; p++) {
            awaitIsr(topic, p, 2);
        }
        assertThat(replicasOf(topic, 1)).containsExactly(1, 2);
        AckedWriter writer = new AckedWriter(cluster.bootstrapServers(), topic, 3);
        writer.start();
        try {
            awaitAcknowledged(writer, 5_000);
            // Every partition moves off one broker; partition 0 loses its leader (0), partition 2 its follower.
            Path plan = dir.resolve("reassignment.json");
            Files.writeString(plan, """
                    {"version":1,"partitions":[
                      {"topic":"moving","partition":0,"replicas":[2,1]},
                      {"topic":"moving","partition":1,"replicas":[0,2]},
                      {"topic":"moving","partition":2,"replicas":[2,1]}]}""");
            ExternalCommand.Result execute = tool(ReassignPartitionsCommand.class, "--execute", "--reassignment-json-file",
                    plan.toString(), "--throttle", "50000000");
            assertThat(execute.stdout()).contains("Successfully started partition reassignments");
            assertThat(topicConfig(topic, "follower.replication.throttled.replicas")).isNotEmpty();
            Awaitility.await("reassignments complete").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> admin.listPartitionReassignments().reassignments().get().isEmpty());
            awaitAcknowledged(writer, writer.acknowledged.size() + 2_000); // the load goes on after the move
            ExternalCommand.Result verify = tool(ReassignPartitionsCommand.class, "--verify", "--reassignment-json-file",
                    plan.toString());
            assertThat(verify.stdout()).contains("Reassignment of partition moving-0 is completed",
                    "Reassignment of partition moving-1 is completed", "Reassignment of partition moving-2 is completed");
            // --verify clears the throttles it set.
            assertThat(topicConfig(topic, "follower.replication.throttled.replicas")).isEmpty();
            assertThat(brokerConfig(0, "leader.replication.throttled.rate").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        } finally {
            writer.finish();
        }
        assertThat(writer.failure.get()).as("producer failure").isNull();
        writer.assertEveryAcknowledgedRecordStoredOnceInOrder(cluster.bootstrapServers(), TIMEOUT);

        assertThat(replicasOf(topic, 0)).containsExactly(2, 1);
        assertThat(replicasOf(topic, 1)).containsExactly(0, 2);
        assertThat(replicasOf(topic, 2)).containsExactly(2, 1);
        for (int p = 0; p < 3; p++) {
            awaitIsr(topic, p, 2);
        }
        assertThat(TestCluster.leaderOf(admin, topic, 0)).as("leader of moving-0, whose leader 0 left").isIn(1, 2);
        // Each partition's new replica joined its ISR: their leaders stored the expansions.
        double expansions = 0;
        for (int id = 0; id < cluster.size(); id++) {
            expansions += PrometheusScrape.of(cluster.broker(id).httpUrl()).value("tributary_isr_expands_total").orElseThrow();
        }
        assertThat(expansions).isGreaterThanOrEqualTo(3);
        // Every replica holds the same batches: equal sizes, no lag; the replicas that left have no log any more.
        assertReplicasInStep(topic, Map.of(0, List.of(2, 1), 1, List.of(0, 2), 2, List.of(2, 1)));
        Awaitility.await("old replicas' logs deleted").atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(hasLogFolder(0, topic, 0)).isFalse();
            assertThat(hasLogFolder(1, topic, 1)).isFalse();
            assertThat(hasLogFolder(0, topic, 2)).isFalse();
        });
    }

    @Test
    @Order(2)
    void reassignPartitionsMovesAReplicaBetweenLogDirsUnderLoadLosingNothing() throws Exception {
        String topic = "relocated";
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(0, 1))))).all().get();
        awaitIsr(topic, 0, 2);
        TopicPartitionReplica replica = new TopicPartitionReplica(topic, 0, 0);
        String from = admin.describeReplicaLogDirs(List.of(replica)).all().get().get(replica).getCurrentReplicaLogDir();
        String to = logDirs(0).stream().filter(logDir -> !logDir.equals(from)).findFirst().orElseThrow();
        AckedWriter writer = new AckedWriter(cluster.bootstrapServers(), topic, 1);
        writer.start();
        try {
            awaitAcknowledged(writer, 10_000); // more than a round copies
            Path plan = dir.resolve("log-dirs.json");
            Files.writeString(plan, """
                    {"version":1,"partitions":[{"topic":"relocated","partition":0,"replicas":[0,1],"log_dirs":["%s","any"]}]}"""
                    .formatted(to));
            ExternalCommand.Result execute = tool(ReassignPartitionsCommand.class, "--execute", "--reassignment-json-file",
                    plan.toString(), "--replica-alter-log-dirs-throttle", "20000");
            assertThat(execute.stdout()).contains("Successfully started moving log directory to " + to
                    + " for replica relocated-0 with broker 0");
            // Held back by its throttle: the future replica in the target dir, behind the replica it copies.
            ReplicaInfo future = admin.describeLogDirs(List.of(0)).allDescriptions().get().get(0).get(to).replicaInfos()
                    .get(new TopicPartition(topic, 0));
            assertThat(future.isFuture()).isTrue();
            assertThat(future.offsetLag()).isPositive();
            assertThat(admin.describeReplicaLogDirs(List.of(replica)).all().get().get(replica).getFutureReplicaLogDir()).isEqualTo(to);
            assertThat(tool(ReassignPartitionsCommand.class, "--verify", "--preserve-throttles", "--reassignment-json-file",
                    plan.toString()).stdout()).contains("Reassignment of replica relocated-0-0 is still in progress");
            // The reassignment's errors, as Kafka answers them.
            assertThatThrownBy(() -> admin.alterReplicaLogDirs(Map.of(replica, dir.resolve("elsewhere").toString())).all().get())
                    .hasCauseInstanceOf(LogDirNotFoundException.class);
            TopicPartitionReplica notThere = new TopicPartitionReplica(topic, 0, 2);
            assertThatThrownBy(() -> admin.alterReplicaLogDirs(Map.of(notThere, logDirs(2).get(0))).all().get())
                    .hasCauseInstanceOf(ReplicaNotAvailableException.class);

            ExternalCommand.Result faster = tool(ReassignPartitionsCommand.class, "--execute", "--additional",
                    "--reassignment-json-file", plan.toString(), "--replica-alter-log-dirs-throttle", "100000000");
            assertThat(faster.stdout()).contains("The replica-alter-dir throttle limit was set to 100000000 B/s");
            Awaitility.await("moved").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                var info = admin.describeReplicaLogDirs(List.of(replica)).all().get().get(replica);
                return to.equals(info.getCurrentReplicaLogDir()) && info.getFutureReplicaLogDir() == null;
            });
            awaitAcknowledged(writer, writer.acknowledged.size() + 2_000); // the load goes on after the move
            ExternalCommand.Result verify = tool(ReassignPartitionsCommand.class, "--verify", "--reassignment-json-file",
                    plan.toString());
            assertThat(verify.stdout()).contains("Reassignment of replica relocated-0-0 completed successfully");
            assertThat(brokerConfig(0, "replica.alter.log.dirs.io.max.bytes.per.second").source())
                    .as("--verify clears the throttle").isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        } finally {
            writer.finish();
        }
        assertThat(writer.failure.get()).as("producer failure").isNull();
        writer.assertEveryAcknowledgedRecordStoredOnceInOrder(cluster.bootstrapServers(), TIMEOUT);
        assertReplicasInStep(topic, Map.of(0, List.of(0, 1)));
        Awaitility.await("the replaced replica deleted").atMost(TIMEOUT).until(() -> !Files.exists(Path.of(from, topic + "-0")));
    }

    @Test
    @Order(3)
    void reassignmentOfADeadBrokerCanBeCancelled() throws Exception {
        String topic = "cancelled";
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(0, 1))))).all().get();
        awaitIsr(topic, 0, 2);
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
            producer.send(new ProducerRecord<>(topic, 0, null, "kept".getBytes())).get();
        }
        // Broker 2 is stopped, so the reassignment onto it cannot complete; cancel it.
        cluster.signal(2, "STOP");
        try {
            admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(List.of(2, 1))))).all().get();
            var ongoing = admin.listPartitionReassignments(Set.of(tp)).reassignments().get().get(tp);
            assertThat(ongoing.replicas()).containsExactly(2, 1, 0);
            assertThat(ongoing.addingReplicas()).containsExactly(2);
            assertThat(ongoing.removingReplicas()).containsExactly(0);
            admin.alterPartitionReassignments(Map.of(tp, Optional.empty())).all().get();
            assertThat(admin.listPartitionReassignments(Set.of(tp)).reassignments().get()).isEmpty();
            assertThatThrownBy(() -> admin.alterPartitionReassignments(Map.of(tp, Optional.empty())).all().get())
                    .hasMessageContaining("No reassignment");
        } finally {
            cluster.signal(2, "CONT");
        }
        // (Described once broker 2 runs again: the admin client may send a describe to any broker.)
        // The original replicas again (their order is not kept, as in Kafka: replicas minus the adding ones).
        assertThat(replicasOf(topic, 0)).containsExactlyInAnyOrder(0, 1);
        assertThat(TestCluster.leaderOf(admin, topic, 0)).isIn(0, 1);
    }

    @Test
    @Order(4)
    void kafkaLeaderElectionPreferred() throws Exception {
        String topic = "preferred";
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(0, 1, 2))))).all().get();
        awaitIsr(topic, 0, 3);
        assertThat(TestCluster.leaderOf(admin, topic, 0)).isZero();
        // Reordering the replicas makes broker 1 the preferred leader; leadership stays until an election.
        TopicPartition tp = new TopicPartition(topic, 0);
        admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(List.of(1, 0, 2))))).all().get();
        Awaitility.await("replicas reordered").atMost(TIMEOUT).until(() -> replicasOf(topic, 0).equals(List.of(1, 0, 2)));
        assertThat(TestCluster.leaderOf(admin, topic, 0)).isZero();

        ExternalCommand.Result elected = tool(LeaderElectionCommand.class, "--election-type", "preferred", "--topic", topic,
                "--partition", "0");
        assertThat(elected.stdout()).contains("Successfully completed leader election (PREFERRED) for partitions preferred-0");
        Awaitility.await("broker 1 leads").atMost(TIMEOUT).until(() -> TestCluster.leaderOf(admin, topic, 0) == 1);
        // kafka-topics --describe of 4.x reads DescribeTopicPartitions (KIP-966), which the brokers advertise.
        assertThat(tool(TopicCommand.class, "--describe", "--topic", topic).stdout()).contains("Leader: 1", "Replicas: 1,0,2");
        ExternalCommand.Result again = tool(LeaderElectionCommand.class, "--election-type", "preferred", "--topic", topic,
                "--partition", "0");
        assertThat(again.stdout()).contains("Valid replica already elected for partitions preferred-0");
    }

    @Test
    @Order(5)
    void kafkaLogDirsDescribesEveryBrokersReplicas() throws Exception {
        ExternalCommand.Result described = tool(LogDirsCommand.class, "--describe", "--topic-list", "moving");
        String json = described.stdout().lines().filter(line -> line.startsWith("{")).findFirst().orElseThrow();
        JsonNode brokers = JSON.readTree(json).path("brokers");
        assertThat(brokers).hasSize(3);
        Map<Integer, List<String>> partitionsByBroker = new HashMap<>();
        for (JsonNode broker : brokers) {
            int id = broker.path("broker").asInt();
            List<String> logDirs = new ArrayList<>();
            List<String> partitions = new ArrayList<>();
            for (JsonNode logDir : broker.path("logDirs")) {
                logDirs.add(logDir.path("logDir").asText());
                assertThat(logDir.path("error").isNull()).isTrue();
                for (JsonNode partition : logDir.path("partitions")) {
                    partitions.add(partition.path("partition").asText());
                    assertThat(partition.path("size").asLong()).isPositive();
                    assertThat(partition.path("isFuture").asBoolean()).isFalse();
                }
            }
            assertThat(logDirs).containsExactlyInAnyOrderElementsOf(logDirs(id));
            partitionsByBroker.put(id, partitions.stream().sorted().toList());
        }
        assertThat(partitionsByBroker).containsEntry(0, List.of("moving-1"))
                .containsEntry(1, List.of("moving-0", "moving-2"))
                .containsEntry(2, List.of("moving-0", "moving-1", "moving-2"));
    }

    /**
     * Broker 1 follows six partitions from broker 0 in one fetcher; three of them cannot roll a new segment there (a
     * folder where the segment file goes), so their appends fail. The other three replicate on; once the folders are
     * gone, the three catch up too.
     */
    @Test
    @Order(6)
    void aFollowerPartitionWhoseLogFailsWaitsAloneWhileTheOthersReplicate() throws Exception {
        String topic = "isolated";
        Map<Integer, List<Integer>> assignment = new HashMap<>();
        for (int p = 0; p < 6; p++) {
            assignment.put(p, List.of(0, 1));
        }
        admin.createTopics(List.of(new NewTopic(topic, assignment).configs(Map.of(LogConfig.SEGMENT_BYTES, "1024"))))
                .all().get();
        for (int p = 0; p < 6; p++) {
            awaitIsr(topic, p, 2);
        }
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(), Map.of(ProducerConfig.ACKS_CONFIG, "1"))) {
            for (int p = 0; p < 6; p++) {
                producer.send(new ProducerRecord<>(topic, p, null, new byte[2_000]));
            }
            producer.flush();
            assertReplicasInStep(topic, assignment); // each segment 0 is full: the next record rolls one at offset 1
            List<Path> blocked = new ArrayList<>();
            for (int p = 0; p < 6; p += 2) {
                blocked.add(Files.createDirectory(logFolder(1, topic, p).resolve("00000000000000000001.log")));
            }
            // The failing partitions first: from then on every fetch response carries their records.
            for (int p : List.of(0, 2, 4, 1, 3, 5)) {
                producer.send(new ProducerRecord<>(topic, p, null, new byte[2_000]));
                producer.flush();
            }
            assertReplicasInStep(topic, Map.of(1, List.of(0, 1), 3, List.of(0, 1), 5, List.of(0, 1)));
            for (int p = 0; p < 6; p += 2) {
                assertThat(describe(new TopicPartitionReplica(topic, p, 1)).size()).as("size of the failing %s-%d on 1", topic, p)
                        .isLessThan(describe(new TopicPartitionReplica(topic, p, 0)).size());
            }

            for (Path folder : blocked) {
                Files.delete(folder);
            }
            assertReplicasInStep(topic, assignment);
        }
    }

    /**
     * A consumer group's committed position lies at the start of a log whose older epochs were deleted (DeleteRecords
     * while broker 2 was stopped: back, it restarted empty at the leader's log start, knowing no epoch); after broker 2
     * becomes the leader, a consumer validating that position (KIP-320) with the older epoch reads on from it.
     */
    @Test
    @Order(7)
    void aPositionAtTheStartOfALogWhoseOlderEpochsWereDeletedIsValidAfterALeaderChange() throws Exception {
        String topic = "validated";
        TopicPartition tp = new TopicPartition(topic, 0);
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(1, 2))))).all().get();
        awaitIsr(topic, 0, 2);
        cluster.signal(2, "STOP");
        int epochRead;
        // Clients of broker 1 alone meanwhile: a request that went to the stopped broker would wait out its timeout.
        String one = cluster.broker(1).bootstrapServers();
        try (Admin oneAdmin = Clients.admin(one);
             KafkaProducer<byte[], byte[]> producer = Clients.producer(one, Map.of(ProducerConfig.ACKS_CONFIG, "1"));
             var consumer = Clients.consumer(one)) {
            Awaitility.await("the ISR without broker 2").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> TestCluster.isrOf(oneAdmin, topic, 0).equals(List.of(1)));
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, ("old-" + i).getBytes()));
            }
            producer.flush();
            consumer.assign(List.of(tp));
            consumer.seek(tp, 4);
            epochRead = Awaitility.await("record 4").atMost(TIMEOUT).until(() -> consumer.poll(Duration.ofMillis(200)),
                    records -> !records.isEmpty()).iterator().next().leaderEpoch().orElseThrow();
            oneAdmin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(5))).all().get();
        } finally {
            cluster.signal(2, "CONT");
        }
        admin.alterConsumerGroupOffsets("validator", Map.of(tp, new OffsetAndMetadata(5, Optional.of(epochRead), ""))).all().get();
        awaitIsr(topic, 0, 2);
        admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(List.of(2, 1))))).all().get();
        Awaitility.await("replicas reordered").atMost(TIMEOUT).until(() -> replicasOf(topic, 0).equals(List.of(2, 1)));
        admin.electLeaders(ElectionType.PREFERRED, Set.of(tp)).all().get();
        Awaitility.await("broker 2 leads").atMost(TIMEOUT).until(() -> TestCluster.leaderOf(admin, topic, 0) == 2);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, ("new-" + i).getBytes())).get();
            }
        }

        try (var consumer = Clients.consumer(cluster.bootstrapServers(), Map.of(ConsumerConfig.GROUP_ID_CONFIG, "validator",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest"))) {
            consumer.subscribe(List.of(topic));
            List<Long> offsets = new ArrayList<>();
            Awaitility.await("the records after the committed position").atMost(TIMEOUT).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> offsets.add(record.offset()));
                return offsets.size() >= 3;
            });
            assertThat(offsets).as("read on from the committed position, not reset to the end").containsExactly(5L, 6L, 7L);
        }
    }

    @Test
    @Order(8)
    void kafkaConfigsAltersAndDescribesDynamicBrokerConfigs() throws Exception {
        // Per broker: shown as a dynamic config of that broker only.
        tool(ConfigCommand.class, "--entity-type", "brokers", "--entity-name", "1", "--alter", "--add-config",
                "follower.replication.throttled.rate=1048576");
        Awaitility.await("broker 1's dynamic config").atMost(TIMEOUT).untilAsserted(() ->
                assertThat(tool(ConfigCommand.class, "--entity-type", "brokers", "--entity-name", "1", "--describe").stdout())
                        .contains("follower.replication.throttled.rate=1048576", "DYNAMIC_BROKER_CONFIG:follower.replication.throttled.rate=1048576"));
        assertThat(brokerConfig(2, "follower.replication.throttled.rate").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);

        // Cluster default, taking effect on every broker: records above message.max.bytes are refused.
        String topic = "limited";
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(2, 0))))).all().get();
        awaitIsr(topic, 0, 2);
        tool(ConfigCommand.class, "--entity-type", "brokers", "--entity-default", "--alter", "--add-config", "message.max.bytes=2000");
        assertThat(tool(ConfigCommand.class, "--entity-type", "brokers", "--entity-default", "--describe").stdout())
                .contains("message.max.bytes=2000");
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
            Awaitility.await("message.max.bytes=2000 in force on the leader").atMost(TIMEOUT).untilAsserted(() ->
                    assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, 0, null, new byte[5_000])).get())
                            .hasCauseInstanceOf(RecordTooLargeException.class));
            tool(ConfigCommand.class, "--entity-type", "brokers", "--entity-default", "--alter", "--delete-config", "message.max.bytes");
            Awaitility.await("the default back").atMost(TIMEOUT).ignoreExceptions()
                    .until(() -> producer.send(new ProducerRecord<>(topic, 0, null, new byte[5_000])).get() != null);
        }

        // Read-only keys are refused, and nothing is stored.
        ExternalCommand.Result refused = toolRun(ConfigCommand.class, "--entity-type", "brokers", "--entity-name", "1", "--alter",
                "--add-config", "log.dirs=/tmp/elsewhere");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stdout() + refused.stderr()).contains("Cannot update these configs dynamically: [log.dirs]");
        tool(ConfigCommand.class, "--entity-type", "brokers", "--entity-name", "1", "--alter", "--delete-config",
                "follower.replication.throttled.rate");
        assertThat(brokerConfig(1, "log.dirs").source()).isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
    }

    @Test
    @Order(9)
    void kafkaLeaderElectionUncleanBringsAnOfflinePartitionBack() throws Exception {
        String topic = "unclean";
        admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(1, 2))))).all().get();
        awaitIsr(topic, 0, 2);
        cluster.broker(2).kill();
        awaitIsr(topic, 0, 1);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
            producer.send(new ProducerRecord<>(topic, 0, null, "only on 1".getBytes())).get();
        }
        cluster.broker(1).kill();
        cluster.broker(2).restart();
        Awaitility.await("partition offline").atMost(TIMEOUT).until(() -> TestCluster.leaderOf(admin, topic, 0) == -1);
        ExternalCommand.Result clean = toolRun(LeaderElectionCommand.class, "--election-type", "preferred", "--topic", topic,
                "--partition", "0");
        assertThat(clean.exitCode()).as("a preferred election has nobody to elect").isNotZero();

        ExternalCommand.Result elected = tool(LeaderElectionCommand.class, "--election-type", "unclean", "--topic", topic,
                "--partition", "0");
        assertThat(elected.stdout()).contains("Successfully completed leader election (UNCLEAN) for partitions unclean-0");
        Awaitility.await("broker 2 leads").atMost(TIMEOUT).until(() -> TestCluster.leaderOf(admin, topic, 0) == 2);
        cluster.broker(1).restart();
        awaitIsr(topic, 0, 2);
    }

    // --- helpers ---

    private static ExternalCommand.Result tool(Class<?> main, String... args) throws Exception {
        ExternalCommand.Result result = toolRun(main, args);
        assertThat(result.exitCode()).as("%s %s: %s %s", main.getSimpleName(), String.join(" ", args), result.stdout(),
                result.stderr()).isZero();
        return result;
    }

    private static ExternalCommand.Result toolRun(Class<?> main, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), main.getName(), "--bootstrap-server", cluster.bootstrapServers()));
        command.addAll(List.of(args));
        return ExternalCommand.run(command, dir, "", 120);
    }

    private static void awaitIsr(String topic, int partition, int size) {
        Awaitility.await(topic + "-" + partition + " with " + size + " in sync").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(() -> TestCluster.leaderOf(admin, topic, partition) >= 0 && TestCluster.isrOf(admin, topic, partition).size() == size);
    }

    private static void awaitAcknowledged(AckedWriter writer, long count) {
        Awaitility.await(count + " acknowledged").atMost(TIMEOUT)
                .until(() -> writer.acknowledged.size() >= count || writer.failure.get() != null);
        assertThat(writer.failure.get()).isNull();
    }

    private static List<Integer> replicasOf(String topic, int partition) throws Exception {
        return TestCluster.describe(admin, topic, partition).replicas().stream().map(node -> node.id()).toList();
    }

    private static String topicConfig(String topic, String key) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        return config.get(key) == null ? "" : config.get(key).value();
    }

    private static ConfigEntry brokerConfig(int broker, String key) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker));
        return admin.describeConfigs(List.of(resource)).all().get().get(resource).get(key);
    }

    /** The absolute paths of a broker's log dirs. */
    private static List<String> logDirs(int broker) {
        return LOG_DIRS.stream().map(logDir -> dir.resolve("broker-" + broker).resolve(logDir).toAbsolutePath().toString()).toList();
    }

    /** Whether a broker holds a folder of the partition, in any of its log dirs. */
    private static boolean hasLogFolder(int broker, String topic, int partition) {
        return logDirs(broker).stream().anyMatch(logDir -> Files.exists(Path.of(logDir, topic + "-" + partition)));
    }

    /** A broker's folder of the partition, in whichever of its log dirs it is. */
    private static Path logFolder(int broker, String topic, int partition) {
        return logDirs(broker).stream().map(logDir -> Path.of(logDir, topic + "-" + partition)).filter(Files::exists)
                .findFirst().orElseThrow(() -> new AssertionError("broker " + broker + " has no folder of " + topic + "-" + partition));
    }

    /** DescribeLogDirs of one replica. */
    private static ReplicaInfo describe(TopicPartitionReplica replica) throws Exception {
        var info = admin.describeReplicaLogDirs(List.of(replica)).all().get().get(replica);
        assertThat(info.getCurrentReplicaLogDir()).as("log dir of %s", replica).isNotNull();
        return admin.describeLogDirs(List.of(replica.brokerId())).allDescriptions().get().get(replica.brokerId())
                .get(info.getCurrentReplicaLogDir()).replicaInfos().get(new TopicPartition(replica.topic(), replica.partition()));
    }

    /** DescribeLogDirs of every replica: the same size on each, none lagging. */
    private static void assertReplicasInStep(String topic, Map<Integer, List<Integer>> assignment) {
        Awaitility.await("replicas in step").atMost(TIMEOUT).untilAsserted(() -> {
            for (Map.Entry<Integer, List<Integer>> partition : assignment.entrySet()) {
                List<Long> sizes = new ArrayList<>();
                for (int broker : partition.getValue()) {
                    var replica = new TopicPartitionReplica(topic, partition.getKey(), broker);
                    ReplicaInfo described = describe(replica);
                    assertThat(described.offsetLag()).as("lag of %s", replica).isZero();
                    sizes.add(described.size());
                }
                assertThat(sizes).as("sizes of %s-%d on %s", topic, partition.getKey(), partition.getValue()).containsOnly(sizes.get(0));
            }
        });
    }
}
