package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.attack.BigFrames;
import io.tributary.testkit.attack.GoodTraffic;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The big-frame attack: many connections each announce a frame of nearly socket.request.max.bytes and
 * send 1 KiB of it. With default settings the broker must neither allocate the announced sizes (200 x
 * 100 MB is far more than the test JVM's heap) nor stop serving a well-behaved producer and consumer.
 */
class BigFrameAttackIT {
    private static final int GOOD_RECORDS = 100;

    @Test
    @Timeout(180)
    void aWellBehavedClientKeepsWorkingWhileConnectionsAnnounceHugeFrames(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of());
             BigFrames attack = new BigFrames(200, 100_000_000, 1024)) {
            GoodTraffic.createTopic(broker.bootstrapServers(), "good");
            attack.start("127.0.0.1", broker.port());
            GoodTraffic.Result result = GoodTraffic.start(broker.bootstrapServers(), "good", GOOD_RECORDS, 20)
                    .finish(Duration.ofSeconds(150));

            assertThat(attack.outcomes()).containsExactly(Map.entry("frame announced", 200));
            assertThat(result.failures()).isEmpty();
            assertThat(result.sent()).isEqualTo(GOOD_RECORDS);
            assertThat(result.consumed()).containsExactlyElementsOf(GoodTraffic.expected(GOOD_RECORDS));
        }
    }

    @Test
    @Timeout(180)
    void connectionsWaitingForMemoryResumeOnceItFrees(@TempDir Path dir) throws Exception {
        // A pool of little more than one 64 KiB step: 300 KB records from three producers at once must take
        // turns (muted, then woken by a release) and the overdraft, yet all be acknowledged.
        try (TestBroker broker = TestBroker.start(dir, Map.of("queued.max.request.bytes", "70000"))) {
            List<Thread> producers = new ArrayList<>();
            List<String> failures = Collections.synchronizedList(new ArrayList<>());
            for (int p = 0; p < 3; p++) {
                int producerIndex = p;
                Thread thread = new Thread(() -> {
                    try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), Map.of("max.request.size", 1 << 20))) {
                        for (int i = 0; i < 20; i++) {
                            producer.send(new ProducerRecord<>("big", new byte[300_000])).get();
                        }
                    } catch (Exception e) {
                        failures.add("producer " + producerIndex + ": " + e);
                    }
                });
                producers.add(thread);
                thread.start();
            }
            for (Thread thread : producers) {
                thread.join(150_000);
            }
            assertThat(failures).isEmpty();
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                TopicPartition partition = new TopicPartition("big", 0);
                assertThat(admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get().get(partition).offset()).isEqualTo(60);
            }
        }
    }
}
