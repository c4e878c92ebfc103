package io.tributary.testkit.attack;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A producer that sends as fast as it can to {@code topic} under a client id whose {@code producer_byte_rate} the
 * attack first sets (through AlterClientQuotas, as {@code kafka-configs --entity-type clients} does) to
 * {@code bytesPerSecond}. A broker that enforces quotas throttles it; the rate it achieved is in
 * {@link #outcomes} as "bytes acknowledged per second".
 */
public final class OverQuota implements Attack {
    public static final String CLIENT_ID = "over-quota";
    private static final int RECORD_BYTES = 10_000;

    private final String topic;
    private final long bytesPerSecond;
    private final AtomicLong acknowledgedBytes = new AtomicLong();
    private final Outcomes outcomes = new Outcomes();
    private KafkaProducer<byte[], byte[]> producer;
    private Thread sender;
    private volatile boolean stopped;
    private long startNanos;

    public OverQuota(String topic, long bytesPerSecond) {
        this.topic = topic;
        this.bytesPerSecond = bytesPerSecond;
    }

    @Override
    public String description() {
        return String.format("a producer over its quota of %,d bytes/s", bytesPerSecond);
    }

    @Override
    public void start(String host, int port) throws ExecutionException, InterruptedException {
        String bootstrap = host + ":" + port;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            ClientQuotaEntity client = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, CLIENT_ID));
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(client,
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", (double) bytesPerSecond))))).all().get();
        }
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.CLIENT_ID_CONFIG, CLIENT_ID, ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000), new ByteArraySerializer(), new ByteArraySerializer());
        startNanos = System.nanoTime();
        sender = new Thread(this::flood, "over-quota");
        sender.setDaemon(true);
        sender.start();
    }

    private void flood() {
        byte[] value = new byte[RECORD_BYTES];
        while (!stopped) {
            try {
                producer.send(new ProducerRecord<>(topic, value), (metadata, error) -> {
                    if (error == null) {
                        acknowledgedBytes.addAndGet(RECORD_BYTES);
                    } else if (!stopped) { // closing the producer fails what is still buffered: not the broker's doing
                        outcomes.add("send failed: " + error.getClass().getSimpleName());
                    }
                });
            } catch (TimeoutException e) {
                outcomes.add("send blocked for 10 s"); // the producer's buffer stayed full: throttled hard
            } catch (RuntimeException e) {
                outcomes.add("send refused: " + e.getClass().getSimpleName());
                return;
            }
        }
    }

    @Override
    public Map<String, Integer> outcomes() {
        Map<String, Integer> all = new TreeMap<>(outcomes.snapshot());
        double seconds = Math.max(1e-3, (System.nanoTime() - startNanos) / 1e9);
        all.put("bytes acknowledged per second", (int) (acknowledgedBytes.get() / seconds));
        return all;
    }

    @Override
    public void close() {
        stopped = true;
        if (sender != null) {
            try {
                sender.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(10));
        }
    }
}
