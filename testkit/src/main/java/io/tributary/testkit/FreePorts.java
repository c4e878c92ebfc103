package io.tributary.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Picks free TCP ports on 127.0.0.1 for servers that cannot bind port 0 and report it back.
 *
 * <p>Ports come from below the kernel's ephemeral range (32768–60999 by default on Linux), so an
 * outgoing connection never takes a port between the moment it is picked and the moment a server
 * binds it, and a broker restarted on its old port finds it free. Each JVM walks the range from
 * a random start, so test JVMs running side by side (parallel module builds, several forks)
 * rarely hand out the same port, and a port another JVM's server holds fails the bind check.
 */
public final class FreePorts {
    private static final int LOWEST = 20_000;
    private static final int COUNT = 12_000;
    private static final AtomicInteger NEXT = new AtomicInteger(ThreadLocalRandom.current().nextInt(COUNT));

    private FreePorts() {
    }

    /** A port that was free on the loopback address a moment ago, and that this JVM has not handed out before. */
    public static int next() {
        for (int attempt = 0; attempt < COUNT; attempt++) {
            int port = LOWEST + Math.floorMod(NEXT.getAndIncrement(), COUNT);
            if (isFree(port)) {
                return port;
            }
        }
        throw new UncheckedIOException(new IOException("no free port on 127.0.0.1 in " + LOWEST + "–" + (LOWEST + COUNT - 1)));
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
