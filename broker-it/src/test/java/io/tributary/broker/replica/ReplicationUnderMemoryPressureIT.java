package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replication stall of issue 18's review, on a real two-broker cluster: a burst of large acks=all produces
 * through a request pool (queued.max.request.bytes) of 2 MiB. Their responses wait for the followers; if the
 * requests kept their memory until answered, the followers' fetches (requests to the same pool) could not be read,
 * nothing would replicate, and the produces would time out. Every record must be acknowledged, in far less than
 * the produce timeout per request.
 */
@Timeout(240)
class ReplicationUnderMemoryPressureIT {
    private static final int PRODUCERS = 4;
    private static final int RECORDS_EACH = 16;
    private static final int RECORD_BYTES = 500_000;

    @TempDir
    Path dir;

    @Test
    void largeAcksAllProducesThroughASmallPoolAreAllReplicatedAndAcknowledged() throws Exception {
        Map<String, String> settings = Map.of(BrokerConfig.QUEUED_MAX_REQUEST_BYTES, Integer.toString(2 * 1024 * 1024),
                BrokerConfig.MIN_INSYNC_REPLICAS, "2");
        try (TestCluster cluster = TestCluster.start(dir, 2, settings);
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic("pressure", 2, (short) 2))).all().get();
            cluster.awaitFullIsr(admin, "pressure", 0, Duration.ofSeconds(60));
            cluster.awaitFullIsr(admin, "pressure", 1, Duration.ofSeconds(60));

            long started = System.nanoTime();
            List<CompletableFuture<Integer>> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                producers.add(CompletableFuture.supplyAsync(() -> produce(cluster.bootstrapServers())));
            }
            for (CompletableFuture<Integer> producer : producers) {
                assertThat(producer.get(180, TimeUnit.SECONDS)).isEqualTo(RECORDS_EACH);
            }
            long elapsedMs = (System.nanoTime() - started) / 1_000_000;
            System.out.printf("PRESSURE-REPORT %d acks=all records of %d bytes through a 2 MiB pool in %d ms%n",
                    PRODUCERS * RECORDS_EACH, RECORD_BYTES, elapsedMs);
        }
    }

    /** @return records acknowledged; any failed send fails the test */
    private static int produce(String bootstrap) {
        // One attempt per record and a produce timeout (request.timeout.ms) of 30 s: a stall shows as a failure.
        Map<String, Object> overrides = Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.BATCH_SIZE_CONFIG, 1_000_000,
                ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_100_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_020,
                ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap, overrides)) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < RECORDS_EACH; i++) {
                sent.add(producer.send(new ProducerRecord<>("pressure", i % 2, null, new byte[RECORD_BYTES])));
            }
            int acknowledged = 0;
            for (Future<RecordMetadata> ack : sent) {
                ack.get();
                acknowledged++;
            }
            return acknowledged;
        } catch (Exception e) {
            throw new IllegalStateException("a send failed", e);
        }
    }
}
