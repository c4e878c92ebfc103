package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import io.tributary.broker.testing.AttackReport;
import io.tributary.broker.testing.GoodTraffic;
import io.tributary.broker.testing.RawConnection;
import io.tributary.broker.testing.Requests;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 100,000 malformed frames while a producer and consumer run: frames of API keys nobody knows (answered with
 * an error, the connection stays), produce requests to the good topic whose records fail their CRC (answered
 * with an error), and unparseable bodies (the connection is closed; the attacker reconnects). The broker keeps
 * serving, and nothing the attack sent is appended.
 */
@Timeout(300)
class MalformedFramesIT {
    private static final int ATTACKERS = 4;
    private static final int FRAMES = 100_000;
    private static final int GOOD_RECORDS = 100;

    @Test
    void malformedFramesCostOnlyTheirOwnConnections(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of())) {
            GoodTraffic.Result without = AttackReport.beforeTheAttack(broker.bootstrapServers(), GOOD_RECORDS);
            AtomicInteger sent = new AtomicInteger();
            ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
            List<Thread> attackers = new ArrayList<>();
            for (int i = 0; i < ATTACKERS; i++) {
                Thread attacker = new Thread(() -> attack(broker.port(), sent, unexpected), "attacker-" + i);
                attackers.add(attacker);
                attacker.start();
            }
            GoodTraffic.Result during = GoodTraffic.start(broker.bootstrapServers(), "good", GOOD_RECORDS, 20)
                    .finish(Duration.ofSeconds(200));
            for (Thread attacker : attackers) {
                attacker.join(200_000);
            }

            assertThat(unexpected).isEmpty();
            assertThat(sent.get()).isGreaterThanOrEqualTo(FRAMES);
            assertThat(during.failures()).isEmpty();
            assertThat(during.consumed()).containsExactlyElementsOf(GoodTraffic.expected(GOOD_RECORDS));
            AttackReport.print("100,000 malformed frames", without, during);
        }
    }

    private static void attack(int port, AtomicInteger sent, ConcurrentLinkedQueue<String> unexpected) {
        MemoryRecords corrupt = corruptRecords();
        RawConnection connection = null;
        try {
            connection = new RawConnection("127.0.0.1", port);
            int n = 0;
            while (sent.getAndIncrement() < FRAMES) {
                switch (n++ % 50) {
                    case 0 -> {
                        // A Metadata request whose body is cut short: the broker closes the connection.
                        connection.writeFrame(ByteBuffer.allocate(10).putShort(0, ApiKeys.METADATA.id).putShort(2, (short) 12)
                                .putInt(4, n).putShort(8, (short) 200));
                        if (!connection.closedByBroker(Duration.ofSeconds(10))) {
                            unexpected.add("a truncated Metadata request did not close its connection");
                        }
                        connection.close();
                        connection = new RawConnection("127.0.0.1", port);
                    }
                    case 1, 2, 3 -> {
                        ProduceResponse response = (ProduceResponse) connection.request(ApiKeys.PRODUCE, (short) 9,
                                Requests.produce("good", (short) 1, corrupt));
                        Errors error = Errors.forCode(response.data().responses().iterator().next().partitionResponses().get(0).errorCode());
                        if (error != Errors.CORRUPT_MESSAGE && error != Errors.INVALID_RECORD) {
                            unexpected.add("a produce with a bad CRC got " + error);
                        }
                    }
                    default -> {
                        // An API key kafka-clients does not know, with garbage behind it: answered, the connection stays.
                        connection.writeFrame(ByteBuffer.allocate(40).putShort(0, (short) (20_000 + n % 1000)).putInt(4, n));
                        ByteBuffer answer = connection.readFrame();
                        if (answer.getInt(0) != n || answer.getShort(4) != Errors.UNSUPPORTED_VERSION.code()) {
                            unexpected.add("an unknown API key was answered with " + answer);
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            unexpected.add("attacker failed: " + e);
        } finally {
            if (connection != null) {
                try {
                    connection.close();
                } catch (IOException e) {
                    // closed by the broker
                }
            }
        }
    }

    /** One batch whose value byte was flipped after the CRC was computed. */
    private static MemoryRecords corruptRecords() {
        ByteBuffer bytes = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("attack".getBytes())).buffer();
        bytes.put(bytes.limit() - 2, (byte) 0x7F);
        return MemoryRecords.readableRecords(bytes);
    }
}
