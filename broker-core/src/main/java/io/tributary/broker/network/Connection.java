package io.tributary.broker.network;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.SelectionKey;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.utils.Time;

/**
 * One client connection as its processor sees it: its transport (plaintext or TLS) and authenticator, the frame being
 * read and the response being written (a request out with the handlers gives its frame's memory back itself, see
 * {@link Request#releaseFrame()}), and the network thread's time spent on its socket (TLS handshake, reads, writes)
 * since that time was last charged to a request. Confined to the processor thread.
 */
final class Connection {
    private final String id;
    private final InetAddress client;
    private final SelectionKey key;
    private final Transport transport;
    private final Authenticator authenticator;
    private final int maxRequestBytes;
    private final FrameReader frames;
    private final Time time;
    private Send send;
    /** The request whose response is being written, or needed none: its client is charged the network time. */
    private Request answering;
    private long networkThreadNanos;
    private boolean awaitingResponse;
    private boolean mutedForMemory;
    private long throttledUntilMs;
    private long lastActiveMs;
    private long requestStartedMs;
    private boolean closeAfterSending;
    private boolean closed;

    Connection(String id, InetAddress client, SelectionKey key, Transport transport,
               Authenticator authenticator, int maxRequestBytes, ReceiveBuffers buffers, MemoryPool pool, Time time) {
        this.id = id;
        this.client = client;
        this.key = key;
        this.transport = transport;
        this.authenticator = authenticator;
        this.maxRequestBytes = maxRequestBytes;
        this.frames = new FrameReader(Math.min(maxRequestBytes, authenticator.maxUnauthenticatedFrameBytes()), buffers, pool);
        this.time = time;
        this.lastActiveMs = time.milliseconds();
    }

    String id() {
        return id;
    }

    /** The client's address, as the connection quotas count it. */
    InetAddress client() {
        return client;
    }

    Authenticator authenticator() {
        return authenticator;
    }

    /** True until the transport is ready (the TLS handshake is done). */
    boolean handshaking() {
        return !transport.ready();
    }

    /** Advances the TLS handshake; once it is done the authenticator sees the session and reading begins. */
    void handshake(long nowMs) throws IOException {
        int interest = (int) timed(transport::handshake);
        lastActiveMs = nowMs;
        if (interest == 0) {
            authenticator.transportReady(transport.sslSession());
            authenticationProgressed();
            interest = SelectionKey.OP_READ;
        }
        key.interestOps(interest);
    }

    /** The pre-authentication frame limit holds while the client is not (or no longer, re-authenticating) logged in. */
    void authenticationProgressed() {
        frames.maxFrameBytes(authenticator.authenticated() ? maxRequestBytes
                : Math.min(maxRequestBytes, authenticator.maxUnauthenticatedFrameBytes()));
    }

    /** True if bytes the selector cannot see (decrypted, or read from the socket already) wait to be read. */
    boolean hasBufferedInput() {
        return transport.hasBufferedInput() && !awaitingResponse && !mutedForMemory && send == null;
    }

    /** Closes the connection once the response being sent is out (a failed authentication). */
    void closeAfterSending() {
        closeAfterSending = true;
    }

    boolean closesAfterSending() {
        return closeAfterSending;
    }

    /**
     * Reads what is available of the current frame, as far as the memory pool allows; when it allows no more,
     * the connection stops reading until {@link #unmuteForMemory} (see {@link #mutedForMemory()}).
     *
     * @return the complete frame (its payload without the size prefix), or null if more bytes are needed
     * @throws org.apache.kafka.common.network.InvalidReceiveException on a bad size prefix
     * @throws java.io.EOFException when the client has closed its end
     */
    FrameReader.Frame read(long nowMs) throws IOException {
        boolean started = frames.midFrame();
        if (timed(() -> frames.readFrom(transport)) > 0) {
            lastActiveMs = nowMs;
        }
        if (!started && frames.midFrame()) {
            requestStartedMs = nowMs;
        }
        if (frames.waitingForMemory()) {
            mutedForMemory = true;
            key.interestOps(0);
        }
        return frames.complete() ? frames.takeFrame() : null;
    }

    boolean mutedForMemory() {
        return mutedForMemory;
    }

    /** Reads again: the pool has memory to spare (the next read may mute the connection again). */
    void unmuteForMemory() {
        mutedForMemory = false;
        if (key.isValid()) {
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    /** Stops reading until the response to the request just read has gone out. */
    void awaitResponse() {
        awaitingResponse = true;
        key.interestOps(0);
    }

    /**
     * Writes as much of {@code response} as the socket takes right away, which for most responses is all of
     * it; the rest goes out when the socket is writable again.
     *
     * @return true once the whole response has been written
     */
    boolean startSending(Send response, long nowMs) throws IOException {
        send = response;
        if (write(nowMs)) {
            return true;
        }
        key.interestOps(SelectionKey.OP_WRITE);
        return false;
    }

    /** @return true once the whole response has been written */
    boolean write(long nowMs) throws IOException {
        if (timed(() -> send.writeTo(transport)) > 0) {
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

    /** Socket work (a TLS handshake step, a read, a write) whose time is the network thread's for this connection. */
    private interface SocketWork {
        long run() throws IOException;
    }

    private long timed(SocketWork work) throws IOException {
        long started = time.nanoseconds();
        try {
            return work.run();
        } finally {
            networkThreadNanos += time.nanoseconds() - started;
        }
    }

    /** {@code request}'s response is about to be written (or needs none, or closes the connection). */
    void answering(Request request) {
        answering = request;
    }

    /**
     * The response to the request being answered is out (or needed none, or the connection is closing): its client is
     * charged the network thread's time on this connection since the last charge (KIP-124), TLS handshake included.
     * Time spent before the first request, or on a SASL login, goes to the next request answered after it.
     */
    void chargeNetworkThreadTime() {
        if (answering != null) {
            answering.recordNetworkThreadTime(networkThreadNanos);
            answering = null;
            networkThreadNanos = 0;
        }
    }

    /** The client is over a quota: once the response being sent is out, read nothing until {@code untilMs}. */
    void throttleUntil(long untilMs) {
        throttledUntilMs = untilMs;
    }

    /** When reading may resume after a throttled response; 0 or past if it may now. */
    long throttledUntilMs() {
        return throttledUntilMs;
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

    /**
     * True if the client began a request before {@code cutoffMs} and has not finished sending it, trickling
     * bytes or not. Waiting for pool memory is the broker's doing, not the client's: it does not count.
     */
    boolean sendingRequestSince(long cutoffMs) {
        return frames.midFrame() && !mutedForMemory && requestStartedMs < cutoffMs;
    }

    /** Mid-request connections are never idle: a long-polling fetch may legitimately take a while. */
    boolean idleSince(long cutoffMs) {
        return !awaitingResponse && send == null && lastActiveMs < cutoffMs;
    }

    /**
     * Closes the socket and gives back the memory of a frame being read (a request with the handlers gives
     * back its own).
     *
     * @return false if it was closed already
     */
    boolean close() {
        if (closed) {
            return false;
        }
        closed = true;
        key.cancel();
        try {
            transport.close();
        } catch (IOException e) {
            // Closing is best effort; the descriptor is gone either way.
        }
        authenticator.close();
        frames.abandon();
        return true;
    }
}
