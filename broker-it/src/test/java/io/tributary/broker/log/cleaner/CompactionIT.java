package io.tributary.broker.log.cleaner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compacted topic on a running broker with its cleaner thread: many overwrites and tombstones end as
 * exactly the latest value per key, while consumers that read the topic from the start again and again
 * during the cleaning always see offsets in order and each key's values in the order they were written.
 */
class CompactionIT {
    private static final String TOPIC = "compacted-it";
    private static final int KEYS = 200;
    private static final int ROUNDS = 25;

    @TempDir
    Path dir;

    @Test
    void overwritesAndTombstonesEndAsTheLatestValuePerKeyAndReadersSeeAConsistentLog() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of(LogConfig.LOG_CLEANER_BACKOFF_MS, "50"))) {
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1).configs(Map.of(
                        LogConfig.CLEANUP_POLICY, LogConfig.CLEANUP_POLICY_COMPACT,
                        LogConfig.SEGMENT_BYTES, "16384",
                        LogConfig.SEGMENT_MS, "500",
                        LogConfig.MIN_CLEANABLE_DIRTY_RATIO, "0.01",
                        LogConfig.DELETE_RETENTION_MS, "0")))).all().get();
            }
            List<String> inconsistencies = new CopyOnWriteArrayList<>();
            AtomicBoolean producing = new AtomicBoolean(true);
            AtomicInteger passes = new AtomicInteger();
            Thread reader = new Thread(() -> {
                while (producing.get()) {
                    checkOnePass(broker.bootstrapServers(), inconsistencies);
                    passes.incrementAndGet();
                }
            }, "compaction-reader");
            reader.start();
            Map<String, String> expected = new HashMap<>();
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), Map.of("linger.ms", 5))) {
                for (int round = 0; round < ROUNDS; round++) {
                    for (int key = 0; key < KEYS; key++) {
                        boolean tombstone = round == ROUNDS - 1 && key % 10 == 0;
                        String value = tombstone ? null : "round-" + round;
                        producer.send(new ProducerRecord<>(TOPIC, bytes("key-" + key), value == null ? null : bytes(value)));
                        if (tombstone) {
                            expected.remove("key-" + key);
                        } else {
                            expected.put("key-" + key, value);
                        }
                    }
                    producer.flush();
                }
                // Once segment.ms has passed, a sentinel rolls the last overwrites into a closed segment.
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
                    producer.send(new ProducerRecord<>(TOPIC, bytes("sentinel"), bytes("s"))).get();
                    return latestExceptSentinel(readAll(broker.bootstrapServers())).equals(expected);
                });
            } finally {
                producing.set(false);
                reader.join(60_000);
            }
            List<ConsumerRecord<byte[], byte[]>> finalRead = readAll(broker.bootstrapServers());
            List<String> keys = new ArrayList<>();
            finalRead.stream().map(r -> string(r.key())).filter(k -> !k.equals("sentinel")).forEach(keys::add);
            assertThat(keys).as("exactly one record per live key").doesNotHaveDuplicates().hasSize(expected.size());
            assertThat(inconsistencies).isEmpty();
            assertThat(passes.get()).isPositive();
        }
    }

    /** One read from the start to the current end: offsets increase, and no key's round ever goes backwards. */
    private static void checkOnePass(String bootstrap, List<String> inconsistencies) {
        Map<String, Integer> lastRound = new HashMap<>();
        long previous = -1;
        for (ConsumerRecord<byte[], byte[]> record : readAll(bootstrap)) {
            if (record.offset() <= previous) {
                inconsistencies.add("offset " + record.offset() + " after " + previous);
            }
            previous = record.offset();
            String key = string(record.key());
            if (record.value() == null || key.equals("sentinel")) {
                continue;
            }
            int round = Integer.parseInt(string(record.value()).substring("round-".length()));
            Integer before = lastRound.put(key, round);
            if (before != null && before >= round) {
                inconsistencies.add(key + ": round " + round + " after round " + before);
            }
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap) {
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(bootstrap, Map.of("max.poll.records", 2000))) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            }
        }
        return records;
    }

    private static Map<String, String> latestExceptSentinel(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, String> latest = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            String key = string(record.key());
            if (key.equals("sentinel")) {
                continue;
            }
            count.merge(key, 1, Integer::sum);
            if (record.value() == null) {
                latest.remove(key);
            } else {
                latest.put(key, string(record.value()));
            }
        }
        // Only a fully compacted log counts: one record per key, tombstones gone.
        return count.values().stream().allMatch(c -> c == 1) && count.size() == latest.size() ? latest : Map.of();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
