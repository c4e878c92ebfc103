package io.tributary.testkit.attack;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ProduceResponse;

/**
 * {@code frames} malformed frames from {@code connections} connections, in a fixed mix per 50 frames: one Metadata
 * request whose body is cut short, three produce requests to {@code topic} whose batch fails its CRC, and 46 frames
 * of API keys nobody knows with garbage behind them. Whenever the broker closes a connection, the attacker notes
 * it and connects again. Outcomes are counted as "&lt;frame kind&gt;: &lt;error code or 'connection closed'&gt;".
 */
public final class MalformedFrames implements Attack {
    public static final String TRUNCATED = "truncated Metadata";
    public static final String BAD_CRC = "produce with a bad CRC";
    public static final String UNKNOWN_KEY = "unknown API key";
    public static final String CLOSED = "connection closed";
    public static final String NO_ANSWER = "no answer within 10 s";

    private final int connections;
    private final int frames;
    private final String topic;
    private final AtomicInteger sent = new AtomicInteger();
    private final Outcomes outcomes = new Outcomes();
    private final List<Thread> attackers = new ArrayList<>();
    private volatile boolean stopped;

    public MalformedFrames(int connections, int frames, String topic) {
        this.connections = connections;
        this.frames = frames;
        this.topic = topic;
    }

    @Override
    public String description() {
        return String.format("%,d malformed frames", frames);
    }

    @Override
    public void start(String host, int port) {
        for (int i = 0; i < connections; i++) {
            Thread attacker = new Thread(() -> attack(host, port), "malformed-frames-" + i);
            attacker.setDaemon(true);
            attackers.add(attacker);
            attacker.start();
        }
    }

    /** Waits until every frame is sent and answered (or {@code timeout} passes). @return whether all were */
    @Override
    public boolean awaitDone(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread attacker : attackers) {
            attacker.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        return attackers.stream().noneMatch(Thread::isAlive);
    }

    public int framesSent() {
        return Math.min(sent.get(), frames);
    }

    private void attack(String host, int port) {
        MemoryRecords corrupt = corruptRecords();
        RawConnection connection = null;
        try {
            int n = 0;
            while (!stopped && sent.getAndIncrement() < frames) {
                if (connection == null) {
                    connection = new RawConnection(host, port);
                }
                boolean open = switch (n++ % 50) {
                    case 0 -> truncatedMetadata(connection, n);
                    case 1, 2, 3 -> badCrcProduce(connection, corrupt);
                    default -> unknownApiKey(connection, n);
                };
                if (!open) {
                    connection.close();
                    connection = null;
                }
            }
        } catch (IOException | RuntimeException e) {
            outcomes.add("attacker failed: " + e.getClass().getSimpleName());
        } finally {
            if (connection != null) {
                RawConnection.closeAll(List.of(connection));
            }
        }
    }

    /** @return whether the connection is still open */
    private boolean truncatedMetadata(RawConnection connection, int correlationId) throws IOException {
        connection.writeFrame(ByteBuffer.allocate(10).putShort(0, ApiKeys.METADATA.id).putShort(2, (short) 12)
                .putInt(4, correlationId).putShort(8, (short) 200));
        boolean closed = connection.closedByBroker(Duration.ofSeconds(10));
        outcomes.add(TRUNCATED + ": " + (closed ? CLOSED : NO_ANSWER));
        return !closed;
    }

    private boolean badCrcProduce(RawConnection connection, MemoryRecords corrupt) {
        try {
            ProduceResponse response = (ProduceResponse) connection.request(ApiKeys.PRODUCE, (short) 9,
                    Requests.produce(topic, (short) 1, corrupt));
            Errors error = Errors.forCode(response.data().responses().iterator().next().partitionResponses().get(0).errorCode());
            outcomes.add(BAD_CRC + ": " + error);
            return true;
        } catch (SocketTimeoutException e) {
            outcomes.add(BAD_CRC + ": " + NO_ANSWER);
            return false;
        } catch (IOException e) {
            outcomes.add(BAD_CRC + ": " + CLOSED);
            return false;
        }
    }

    private boolean unknownApiKey(RawConnection connection, int correlationId) {
        try {
            connection.writeFrame(ByteBuffer.allocate(40).putShort(0, (short) (20_000 + correlationId % 1000)).putInt(4, correlationId));
            ByteBuffer answer = connection.readFrame();
            outcomes.add(UNKNOWN_KEY + ": " + (answer.getInt(0) == correlationId
                    ? Errors.forCode(answer.getShort(4)).name() : "answer to another request"));
            return true;
        } catch (SocketTimeoutException e) {
            outcomes.add(UNKNOWN_KEY + ": " + NO_ANSWER);
            return false;
        } catch (IOException e) {
            outcomes.add(UNKNOWN_KEY + ": " + CLOSED);
            return false;
        }
    }

    /** One batch whose value byte was flipped after the CRC was computed. */
    private static MemoryRecords corruptRecords() {
        ByteBuffer bytes = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("attack".getBytes())).buffer();
        bytes.put(bytes.limit() - 2, (byte) 0x7F);
        return MemoryRecords.readableRecords(bytes);
    }

    @Override
    public Map<String, Integer> outcomes() {
        return outcomes.snapshot();
    }

    @Override
    public void close() {
        stopped = true;
        for (Thread attacker : attackers) {
            try {
                attacker.join(15_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
