package io.tributary.broker.network;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts connections on the listener and deals them round-robin to the processors; a connection beyond the
 * {@link ConnectionQuotas} is closed at once.
 */
final class Acceptor implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(Acceptor.class);
    private static final long REFUSAL_WARNING_INTERVAL_MS = 10_000;

    private final ServerSocketChannel serverSocket;
    private final List<Processor> processors;
    private final ConnectionQuotas quotas;
    private final int sendBufferBytes;
    private final int receiveBufferBytes;
    private int next;
    private long lastRefusalWarningMs;

    /** Binds immediately, so the bound port (for port 0) is known before {@link #run()} starts. */
    Acceptor(InetSocketAddress address, List<Processor> processors, ConnectionQuotas quotas, int sendBufferBytes,
             int receiveBufferBytes) throws IOException {
        this.serverSocket = ServerSocketChannel.open();
        this.serverSocket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        this.serverSocket.bind(address, 512);
        this.processors = processors;
        this.quotas = quotas;
        this.sendBufferBytes = sendBufferBytes;
        this.receiveBufferBytes = receiveBufferBytes;
    }

    InetSocketAddress boundAddress() throws IOException {
        return (InetSocketAddress) serverSocket.getLocalAddress();
    }

    @Override
    public void run() {
        while (serverSocket.isOpen()) {
            SocketChannel socket = null;
            InetAddress client = null;
            try {
                socket = serverSocket.accept();
                InetAddress address = ((InetSocketAddress) socket.getRemoteAddress()).getAddress();
                if (!quotas.tryOpen(address)) {
                    refuse(socket, address);
                    continue;
                }
                client = address;
                configure(socket);
                if (!handOver(socket, client)) {
                    log.warn("no network thread is running to take a connection from {}; closing it", address.getHostAddress());
                    closeUncounted(socket, client);
                }
            } catch (ClosedChannelException e) {
                return; // close() was called: stop accepting
            } catch (IOException e) {
                log.warn("accept failed", e);
                closeUncounted(socket, client);
            } catch (Throwable e) {
                // Whatever went wrong costs this one connection, never the listener.
                log.error("could not hand over a new connection; closing it", e);
                closeUncounted(socket, client);
            }
        }
    }

    /** Gives the socket to the next processor whose thread is running (one that died is skipped until replaced). */
    private boolean handOver(SocketChannel socket, InetAddress client) {
        for (int tries = 0; tries < processors.size(); tries++) {
            Processor processor = processors.get(next);
            next = (next + 1) % processors.size();
            if (processor.accept(socket, client)) {
                return true;
            }
        }
        return false;
    }

    private void refuse(SocketChannel socket, InetAddress address) {
        closeQuietly(socket);
        long now = System.currentTimeMillis();
        if (now - lastRefusalWarningMs >= REFUSAL_WARNING_INTERVAL_MS) {
            lastRefusalWarningMs = now;
            log.warn("refused a connection from {}: max.connections or max.connections.per.ip reached "
                    + "({} open, {} refused since start)", address.getHostAddress(), quotas.open(), quotas.refused());
        }
    }

    /** Closes a connection that never reached a processor, and takes it off the quotas if it was counted. */
    private void closeUncounted(SocketChannel socket, InetAddress counted) {
        closeQuietly(socket);
        if (counted != null) {
            quotas.closed(counted);
        }
    }

    private static void closeQuietly(SocketChannel socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            // the descriptor is gone either way
        }
    }

    private void configure(SocketChannel socket) throws IOException {
        socket.configureBlocking(false);
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        socket.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        if (sendBufferBytes > 0) {
            socket.setOption(StandardSocketOptions.SO_SNDBUF, sendBufferBytes);
        }
        if (receiveBufferBytes > 0) {
            socket.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
        }
    }

    /** Stops accepting; established connections stay with their processors. */
    void close() {
        try {
            serverSocket.close();
        } catch (IOException e) {
            log.warn("could not close the listening socket", e);
        }
    }
}
