package io.tributary.testkit.attack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * The child JVM of {@link IdleConnections}, so that thousands of client ends do not count against the attacking
 * JVM's descriptors: opens {@code count} connections from {@code localHost} to
 * {@code host:port}, prints {@code OPEN <count>}, and holds them until its standard input closes.
 *
 * <pre>IdleConnectionsMain localHost host port count</pre>
 */
public final class IdleConnectionsMain {
    private IdleConnectionsMain() {
    }

    public static void main(String[] args) throws IOException {
        String localHost = args[0];
        InetSocketAddress broker = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
        int count = Integer.parseInt(args[3]);
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket socket = new Socket();
            socket.bind(new InetSocketAddress(localHost, 0));
            socket.connect(broker, 10_000);
            sockets.add(socket);
        }
        System.out.println("OPEN " + sockets.size());
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold the connections until the test closes our input
        }
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
