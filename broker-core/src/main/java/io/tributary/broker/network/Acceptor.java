package io.tributary.broker.network;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Accepts connections on the listener and deals them round-robin to the processors. */
final class Acceptor implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(Acceptor.class);

    private final ServerSocketChannel serverSocket;
    private final List<Processor> processors;
    private final int sendBufferBytes;
    private final int receiveBufferBytes;
    private int next;

    /** Binds immediately, so the bound port (for port 0) is known before {@link #run()} starts. */
    Acceptor(InetSocketAddress address, List<Processor> processors, int sendBufferBytes, int receiveBufferBytes) throws IOException {
        this.serverSocket = ServerSocketChannel.open();
        this.serverSocket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        this.serverSocket.bind(address, 512);
        this.processors = processors;
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
            try {
                socket = serverSocket.accept();
                configure(socket);
                processors.get(next).accept(socket);
                next = (next + 1) % processors.size();
            } catch (ClosedChannelException e) {
                return; // close() was called: stop accepting
            } catch (IOException e) {
                log.warn("accept failed", e);
                closeQuietly(socket);
            } catch (Throwable e) {
                // Whatever went wrong costs this one connection, never the listener.
                log.error("could not hand over a new connection; closing it", e);
                closeQuietly(socket);
            }
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
