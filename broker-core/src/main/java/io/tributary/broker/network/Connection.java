package io.tributary.broker.network;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.apache.kafka.common.network.NetworkReceive;
import org.apache.kafka.common.network.Send;

/**
 * One client connection as its processor sees it: the frame being read, the response being
 * written, and whether a request is out with the handlers. Confined to the processor thread.
 */
final class Connection {
    private final String id;
    private final SocketChannel socket;
    private final SelectionKey key;
    private final SocketChannelTransfer transfer;
    private final int maxRequestBytes;
    private NetworkReceive receive;
    private Send send;
    private boolean awaitingResponse;
    private long lastActiveMs;

    Connection(String id, SocketChannel socket, SelectionKey key, int maxRequestBytes, long nowMs) {
        this.id = id;
        this.socket = socket;
        this.key = key;
        this.transfer = new SocketChannelTransfer(socket);
        this.maxRequestBytes = maxRequestBytes;
        this.lastActiveMs = nowMs;
    }

    String id() {
        return id;
    }

    /**
     * Reads what is available of the current frame. The size prefix is checked against
     * {@code socket.request.max.bytes} before the payload buffer is allocated.
     *
     * @return the complete frame's receive, or null if more bytes are needed
     * @throws org.apache.kafka.common.network.InvalidReceiveException on a bad size prefix
     * @throws java.io.EOFException when the client has closed its end
     */
    NetworkReceive read(long nowMs) throws IOException {
        if (receive == null) {
            receive = new NetworkReceive(maxRequestBytes, id);
        }
        long read = receive.readFrom(socket);
        if (read < 0) {
            throw new java.io.EOFException("connection " + id + " closed by the client");
        }
        if (read > 0) {
            lastActiveMs = nowMs;
        }
        if (!receive.complete()) {
            return null;
        }
        NetworkReceive complete = receive;
        receive = null;
        return complete;
    }

    /** Stops reading until the response to the request just read has gone out. */
    void awaitResponse() {
        awaitingResponse = true;
        key.interestOps(0);
    }

    void startSending(Send response) {
        send = response;
        key.interestOps(SelectionKey.OP_WRITE);
    }

    /** @return true once the whole response has been written */
    boolean write(long nowMs) throws IOException {
        if (send.writeTo(transfer) > 0) {
            lastActiveMs = nowMs;
        }
        if (!send.completed()) {
            return false;
        }
        send = null;
        return true;
    }

    boolean sending() {
        return send != null;
    }

    /** Reads the next request: the previous one has been answered (or needed no answer). */
    void resumeReading(long nowMs) {
        awaitingResponse = false;
        lastActiveMs = nowMs;
        key.interestOps(SelectionKey.OP_READ);
    }

    /** Neither reads nor writes: the selector ignores this connection until it is closed. */
    void stopSelecting() {
        key.interestOps(0);
    }

    /** Mid-request connections are never idle: a long-polling fetch may legitimately take a while. */
    boolean idleSince(long cutoffMs) {
        return !awaitingResponse && send == null && lastActiveMs < cutoffMs;
    }

    void close() {
        key.cancel();
        try {
            socket.close();
        } catch (IOException e) {
            // Closing is best effort; the descriptor is gone either way.
        }
        if (receive != null) {
            try {
                receive.close();
            } catch (IOException ignored) {
                // The receive's buffer is heap memory; nothing to release.
            }
        }
    }
}
