package io.tributary.testkit.attack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.tributary.testkit.wire.RawConnection;

/**
 * {@code connections} connections that each announce a 1 KiB request and then send it one byte per
 * {@code interval}, all from one thread, until the broker closes them or the attack is closed. Outcomes:
 * "cut off" for each connection the broker closed, "still open" for the others when the attack ends.
 */
public final class SlowSenders implements Attack {
    private static final int REQUEST_BYTES = 1024;

    private final int connections;
    private final Duration interval;
    private final Outcomes outcomes = new Outcomes();
    private final List<RawConnection> open = new ArrayList<>();
    private Thread sender;
    private volatile boolean stopped;

    public SlowSenders(int connections, Duration interval) {
        this.connections = connections;
        this.interval = interval;
    }

    @Override
    public String description() {
        return String.format("%,d connections sending a byte every %,d ms", connections, interval.toMillis());
    }

    @Override
    public void start(String host, int port) throws IOException {
        for (int i = 0; i < connections; i++) {
            RawConnection connection = new RawConnection(host, port);
            open.add(connection);
            connection.write(ByteBuffer.allocate(4).putInt(REQUEST_BYTES).array());
        }
        sender = new Thread(this::trickle, "slow-senders");
        sender.setDaemon(true);
        sender.start();
    }

    private void trickle() {
        List<RawConnection> live = new ArrayList<>(open);
        try {
            for (int sentBytes = 0; sentBytes < REQUEST_BYTES && !stopped && !live.isEmpty(); sentBytes++) {
                live.removeIf(connection -> {
                    try {
                        connection.write(new byte[] {1});
                        return false;
                    } catch (IOException e) {
                        outcomes.add("cut off");
                        return true;
                    }
                });
                Thread.sleep(interval.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        live.forEach(connection -> outcomes.add("still open"));
    }

    @Override
    public Map<String, Integer> outcomes() {
        return outcomes.snapshot();
    }

    @Override
    public void close() {
        stopped = true;
        if (sender != null) {
            try {
                sender.join(interval.toMillis() + 10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        RawConnection.closeAll(open);
        open.clear();
    }
}
