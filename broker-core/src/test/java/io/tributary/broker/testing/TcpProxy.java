package io.tributary.broker.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a free loopback port to one target, which a test can cut like a network that drops every packet:
 * while cut, connections stay open and new ones are accepted, but no byte goes through in either direction, so
 * the client only notices by its own timeouts. Healing closes the connections that saw the cut (their streams
 * lost bytes) and relays again. One thread per direction per connection; for a handful of clients.
 */
public final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Socket> sawCut = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    private volatile boolean closed;

    private TcpProxy(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
    }

    /** Relays {@link #address()} to {@code hostAndPort} ({@code host:port}, as in a ZooKeeper connect string). */
    public static TcpProxy to(String hostAndPort) throws IOException {
        int colon = hostAndPort.lastIndexOf(':');
        InetSocketAddress target = new InetSocketAddress(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
        TcpProxy proxy = new TcpProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), target);
        Thread acceptor = new Thread(proxy::accept, "tcp-proxy-accept-" + proxy.address());
        acceptor.setDaemon(true);
        acceptor.start();
        return proxy;
    }

    public String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** From now on nothing goes through, in either direction. */
    public void cut() {
        sawCut.addAll(sockets);
        cut = true;
    }

    /** Relays again; connections that were open during the cut are closed. */
    public void heal() {
        cut = false;
        for (Socket socket : sawCut) {
            closeQuietly(socket);
        }
        sawCut.clear();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            track(client);
            if (cut) {
                // Accepted by the network stack, but nothing answers: a blackhole, not a refusal.
                pump(client, null, client);
                continue;
            }
            try {
                Socket upstream = new Socket();
                upstream.connect(target, 5_000);
                track(upstream);
                pump(client, upstream, client);
                pump(upstream, client, client);
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private void track(Socket socket) {
        sockets.add(socket);
        if (cut) {
            sawCut.add(socket);
        }
    }

    /** Copies {@code from} to {@code to} (discarding while cut, or always if {@code to} is null); closes both at the end. */
    private void pump(Socket from, Socket to, Socket client) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                OutputStream out = to == null ? null : to.getOutputStream();
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                    if (out != null && !cut) {
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // the other side or heal() closed it
            } finally {
                closeQuietly(from);
                if (to != null) {
                    closeQuietly(to);
                }
            }
        }, "tcp-proxy-" + client.getPort());
        thread.setDaemon(true);
        thread.start();
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(this::closeQuietly);
    }
}
