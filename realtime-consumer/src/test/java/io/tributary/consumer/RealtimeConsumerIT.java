package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The library end to end against a real broker (see {@link TestBroker} for which one). */
class RealtimeConsumerIT {
    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    private static final AtomicInteger names = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(60);
    private final List<RealtimeConsumer> started = new ArrayList<>();

    @AfterEach
    void closeConsumers() {
        started.forEach(consumer -> consumer.close(Duration.ofSeconds(10)));
    }

    private static String unique(String prefix) {
        return prefix + "-" + names.incrementAndGet();
    }

    private static RealtimeConsumerBuilder<String, String> builder(String group, String topic) {
        return RealtimeConsumer.builder()
                .bootstrapServers(broker.bootstrapServers())
                .groupId(group)
                .topics(topic)
                .startPosition(StartPosition.earliest())
                .commitInterval(Duration.ofMillis(200))
                .metricsInterval(Duration.ofMillis(200), false)
                .keyDeserializer(new StringDeserializer())
                .valueDeserializer(new StringDeserializer());
    }

    private RealtimeConsumer track(RealtimeConsumer consumer) {
        started.add(consumer);
        return consumer;
    }

    private static List<String> numbered(int partition, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> partition + "-" + i).toList();
    }

    private static String header(Headers headers, String key) {
        return new String(headers.lastHeader(key).value(), StandardCharsets.UTF_8);
    }

    @Test
    void handlesEachPartitionInOrderWhilePartitionsRunInParallel() throws Exception {
        String topic = unique("ordering");
        String group = unique("g");
        int partitions = 4;
        int perPartition = 300;
        broker.createTopic(topic, partitions);
        broker.produceNumbered(topic, partitions, 0, perPartition);

        int parallelism = 3;
        CountDownLatch firstRecordsMeet = new CountDownLatch(parallelism);
        AtomicBoolean ranInParallel = new AtomicBoolean(true);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        Map<Integer, List<String>> seen = new ConcurrentHashMap<>();
        RealtimeConsumer consumer = track(builder(group, topic)
                .parallelism(parallelism)
                .maxBatchSize(50)
                .recordHandler(record -> {
                    mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                    List<String> values = seen.computeIfAbsent(record.partition(), p -> new CopyOnWriteArrayList<>());
                    if (values.isEmpty()) {
                        // Passes only if `parallelism` partitions are in their handler at the same moment.
                        firstRecordsMeet.countDown();
                        ranInParallel.compareAndSet(true, firstRecordsMeet.await(20, TimeUnit.SECONDS));
                    }
                    values.add(record.value());
                    running.decrementAndGet();
                })
                .start());

        await().atMost(WAIT).until(() -> seen.values().stream().mapToInt(List::size).sum() == partitions * perPartition);
        for (int p = 0; p < partitions; p++) {
            assertThat(seen.get(p)).containsExactlyElementsOf(numbered(p, 0, perPartition));
        }
        assertThat(ranInParallel).isTrue();
        assertThat(mostRunning.get()).isEqualTo(parallelism);
        await().atMost(WAIT).until(() -> broker.committed(group, topic).equals(broker.endOffsets(topic, partitions)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(consumer.metrics().values())
                .hasSize(partitions)
                .allSatisfy(stats -> {
                    assertThat(stats.recordsProcessed()).isEqualTo(perPartition);
                    assertThat(stats.lag()).hasValue(0);
                }));
    }

    @Test
    void batchHandlerGetsConsecutiveRecordsOfOnePartition() throws Exception {
        String topic = unique("batches");
        broker.createTopic(topic, 2);
        broker.produceNumbered(topic, 2, 0, 200);

        List<List<ConsumerRecord<String, String>>> batches = new CopyOnWriteArrayList<>();
        track(builder(unique("g"), topic)
                .maxBatchSize(64)
                .batchHandler(batches::add)
                .start());

        await().atMost(WAIT).until(() -> batches.stream().mapToInt(List::size).sum() == 400);
        assertThat(batches).allSatisfy(batch -> {
            assertThat(batch).hasSizeLessThanOrEqualTo(64);
            assertThat(batch).extracting(ConsumerRecord::partition).containsOnly(batch.get(0).partition());
        });
        for (int p = 0; p < 2; p++) {
            int partition = p;
            List<String> values = batches.stream().flatMap(List::stream)
                    .filter(r -> r.partition() == partition).map(ConsumerRecord::value).toList();
            assertThat(values).containsExactlyElementsOf(numbered(p, 0, 200));
        }
    }

    /** Cooperative (the default: only moved partitions are revoked) and eager (all are). */
    @ParameterizedTest
    @ValueSource(classes = {CooperativeStickyAssignor.class, RangeAssignor.class})
    void losesNothingWhenConsumersJoinAndLeave(Class<?> assignor) throws Exception {
        String topic = unique("rebalance");
        String group = unique("g");
        int partitions = 6;
        broker.createTopic(topic, partitions);
        broker.produceNumbered(topic, partitions, 0, 100);

        Set<String> handled = ConcurrentHashMap.newKeySet();
        AtomicInteger firstConsumerCount = new AtomicInteger();
        RealtimeConsumer first = track(builder(group, topic).parallelism(2)
                .consumerProperty("partition.assignment.strategy", assignor.getName())
                .recordHandler(record -> {
                    handled.add(record.value());
                    firstConsumerCount.incrementAndGet();
                }).start());
        await().atMost(WAIT).until(() -> firstConsumerCount.get() > 0);

        RealtimeConsumer second = track(builder(group, topic).parallelism(2)
                .consumerProperty("partition.assignment.strategy", assignor.getName())
                .recordHandler(record -> handled.add(record.value())).start());
        await().atMost(WAIT).until(() -> broker.members(group) == 2);
        broker.produceNumbered(topic, partitions, 100, 200);
        first.close(Duration.ofSeconds(20));
        await().atMost(WAIT).until(() -> broker.members(group) == 1);
        broker.produceNumbered(topic, partitions, 200, 300);

        await().atMost(WAIT).until(() -> broker.committed(group, topic).equals(broker.endOffsets(topic, partitions)));
        for (int p = 0; p < partitions; p++) {
            assertThat(handled).containsAll(numbered(p, 0, 300));
        }
        assertThat(second.isRunning()).isTrue();
    }

    @Test
    void retriesThenDeadLettersWithTheOriginalCoordinates() throws Exception {
        String topic = unique("failing");
        String deadLetterTopic = topic + ".dlq";
        String group = unique("g");
        broker.createTopic(topic, 1);
        broker.createTopic(deadLetterTopic, 1);
        broker.produce(List.of(new ProducerRecord<>(topic, 0, "a", "ok-0"),
                new ProducerRecord<>(topic, 0, "b", "poison"),
                new ProducerRecord<>(topic, 0, "c", "ok-2")));

        AtomicInteger poisonAttempts = new AtomicInteger();
        List<String> handled = new CopyOnWriteArrayList<>();
        track(builder(group, topic)
                .retryPolicy(RetryPolicy.exponential(2, Duration.ofMillis(10), Duration.ofMillis(50)))
                .failurePolicy(FailurePolicy.deadLetter(deadLetterTopic))
                .recordHandler(record -> {
                    if (record.value().equals("poison")) {
                        poisonAttempts.incrementAndGet();
                        throw new IllegalStateException("cannot digest " + record.value());
                    }
                    handled.add(record.value());
                })
                .start());

        await().atMost(WAIT).until(() -> broker.committed(group, topic).equals(Map.of(0, 3L)));
        assertThat(handled).containsExactly("ok-0", "ok-2");
        assertThat(poisonAttempts).hasValue(3);
        List<ConsumerRecord<String, String>> deadLetters = broker.readFromBeginning(deadLetterTopic, 1);
        assertThat(deadLetters).hasSize(1);
        ConsumerRecord<String, String> deadLetter = deadLetters.get(0);
        assertThat(deadLetter.key()).isEqualTo("b");
        assertThat(deadLetter.value()).isEqualTo("poison");
        assertThat(header(deadLetter.headers(), DeadLetterHeaders.TOPIC)).isEqualTo(topic);
        assertThat(header(deadLetter.headers(), DeadLetterHeaders.PARTITION)).isEqualTo("0");
        assertThat(header(deadLetter.headers(), DeadLetterHeaders.OFFSET)).isEqualTo("1");
        assertThat(header(deadLetter.headers(), DeadLetterHeaders.EXCEPTION_CLASS))
                .isEqualTo(IllegalStateException.class.getName());
        assertThat(header(deadLetter.headers(), DeadLetterHeaders.EXCEPTION_MESSAGE)).isEqualTo("cannot digest poison");
    }

    @Test
    void stopsWithoutCommittingTheFailedRecordWhenTheFailurePolicyIsStop() throws Exception {
        String topic = unique("stopping");
        String group = unique("g");
        broker.createTopic(topic, 1);
        broker.produce(List.of(new ProducerRecord<>(topic, 0, "a", "ok-0"),
                new ProducerRecord<>(topic, 0, "b", "ok-1"),
                new ProducerRecord<>(topic, 0, "c", "poison"),
                new ProducerRecord<>(topic, 0, "d", "ok-3")));

        List<String> handled = new CopyOnWriteArrayList<>();
        RealtimeConsumer consumer = track(builder(group, topic)
                .retryPolicy(RetryPolicy.exponential(1, Duration.ofMillis(10), Duration.ofMillis(10)))
                .failurePolicy(FailurePolicy.stop())
                .recordHandler(record -> {
                    if (record.value().equals("poison")) {
                        throw new IllegalStateException("cannot digest");
                    }
                    handled.add(record.value());
                })
                .start());

        assertThat(consumer.awaitTermination(WAIT)).isTrue();
        assertThat(consumer.failure()).containsInstanceOf(RecordProcessingException.class);
        assertThat(consumer.failure().orElseThrow())
                .hasMessageContaining(topic + "-0@2").hasRootCauseMessage("cannot digest");
        assertThat(handled).containsExactly("ok-0", "ok-1");
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 2L));
    }

    @Test
    void slowHandlerPausesThePartitionAndStaysInTheGroup() throws Exception {
        String topic = unique("slow");
        String group = unique("g");
        int records = 300;
        broker.createTopic(topic, 1);
        broker.produceNumbered(topic, 1, 0, records);

        Semaphore permits = new Semaphore(0);
        List<String> handled = new CopyOnWriteArrayList<>();
        int maxQueued = 20;
        int maxPollRecords = 10;
        RealtimeConsumer consumer = track(builder(group, topic)
                .parallelism(1)
                .maxQueuedPerPartition(maxQueued)
                .consumerProperty("max.poll.records", maxPollRecords)
                // A poll loop that waited for the handler would be evicted after 3 s.
                .consumerProperty("max.poll.interval.ms", 3000)
                .recordHandler(record -> {
                    permits.acquire();
                    handled.add(record.value());
                })
                .start());

        TopicPartition partition = new TopicPartition(topic, 0);
        await().atMost(WAIT).untilAsserted(() -> assertThat(consumer.metrics().get(partition))
                .isNotNull().satisfies(stats -> assertThat(stats.paused()).isTrue()));
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(broker.members(group)).isEqualTo(1);
            assertThat(consumer.metrics().get(partition).queued()).isLessThanOrEqualTo(maxQueued + maxPollRecords);
        });

        permits.release(records);
        await().atMost(WAIT).until(() -> handled.size() == records);
        // Nobody was evicted, so nothing was delivered twice.
        assertThat(handled).containsExactlyElementsOf(numbered(0, 0, records));
        await().atMost(WAIT).until(() -> broker.committed(group, topic).equals(Map.of(0, (long) records)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(consumer.metrics().get(partition).paused()).isFalse());
    }

    @Test
    void closeWaitsForTheRecordInProgressAndCommitsEverythingFinished() throws Exception {
        String topic = unique("closing");
        String group = unique("g");
        broker.createTopic(topic, 1);
        broker.produceNumbered(topic, 1, 0, 100);

        CountDownLatch thirtiethStarted = new CountDownLatch(1);
        CountDownLatch releaseThirtieth = new CountDownLatch(1);
        List<String> handled = new CopyOnWriteArrayList<>();
        RealtimeConsumer consumer = builder(group, topic)
                .commitInterval(Duration.ofHours(1)) // only the final commit counts
                .recordHandler(record -> {
                    if (record.offset() == 30) {
                        thirtiethStarted.countDown();
                        releaseThirtieth.await(30, TimeUnit.SECONDS);
                    }
                    handled.add(record.value());
                })
                .start();
        assertThat(thirtiethStarted.await(60, TimeUnit.SECONDS)).isTrue();

        Thread closer = new Thread(() -> consumer.close(Duration.ofSeconds(30)), "closer");
        closer.start();
        // close() requested the stop and is now waiting for the poll thread.
        await().atMost(WAIT).until(() -> closer.getState() == Thread.State.TIMED_WAITING);
        releaseThirtieth.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(60));

        assertThat(consumer.isRunning()).isFalse();
        assertThat(handled).containsExactlyElementsOf(numbered(0, 0, 31));
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 31L));
    }

    @Test
    void aHandlerCanCloseItsOwnConsumer() throws Exception {
        String topic = unique("self-closing");
        String group = unique("g");
        broker.createTopic(topic, 1);
        broker.produceNumbered(topic, 1, 0, 50);

        AtomicReference<RealtimeConsumer> self = new AtomicReference<>();
        List<String> handled = new CopyOnWriteArrayList<>();
        self.set(builder(group, topic)
                .recordHandler(record -> {
                    handled.add(record.value());
                    if (record.offset() == 9) {
                        self.get().close(Duration.ofSeconds(30)); // only requests the stop: no self-wait
                    }
                })
                .start());

        assertThat(self.get().awaitTermination(WAIT)).isTrue();
        assertThat(self.get().failure()).isEmpty();
        assertThat(handled).startsWith(numbered(0, 0, 10).toArray(String[]::new));
        assertThat(broker.committed(group, topic).get(0)).isEqualTo(handled.size());
    }

    @Test
    void newGroupStartsAtTheEndByDefault() throws Exception {
        String topic = unique("latest");
        broker.createTopic(topic, 1);
        broker.produceNumbered(topic, 1, 0, 5);

        List<String> handled = new CopyOnWriteArrayList<>();
        RealtimeConsumer consumer = track(RealtimeConsumer.builder()
                .bootstrapServers(broker.bootstrapServers()).groupId(unique("g")).topics(topic)
                .metricsInterval(Duration.ofMillis(100), false)
                .valueDeserializer(new StringDeserializer())
                .recordHandler(record -> handled.add(record.value()))
                .start());
        // A known lag means the position was resolved (to the end, 5) before more records arrive.
        await().atMost(WAIT).untilAsserted(() -> assertThat(consumer.metrics().get(new TopicPartition(topic, 0)))
                .isNotNull().extracting(PartitionStats::lag).isEqualTo(OptionalLong.of(0)));
        broker.produceNumbered(topic, 1, 5, 8);

        await().atMost(WAIT).until(() -> handled.size() == 3);
        assertThat(handled).containsExactly("0-5", "0-6", "0-7");
    }

    @Test
    void newGroupStartsAtTheFirstRecordAtOrAfterTheTimestamp() throws Exception {
        String topic = unique("timestamps");
        broker.createTopic(topic, 1);
        Instant base = broker.produceOneASecond(topic, 10);

        List<String> handled = new CopyOnWriteArrayList<>();
        track(builder(unique("g"), topic)
                .startPosition(StartPosition.timestamp(base.plusMillis(4500)))
                .recordHandler(record -> handled.add(record.value()))
                .start());

        await().atMost(WAIT).until(() -> handled.size() == 5);
        assertThat(handled).containsExactly("v5", "v6", "v7", "v8", "v9");
    }
}
