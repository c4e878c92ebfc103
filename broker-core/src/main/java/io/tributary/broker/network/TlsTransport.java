package io.tributary.broker.network;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

/**
 * TLS over a non-blocking socket with the JDK's {@link SSLEngine}: the handshake is driven by the selector's events,
 * then reads unwrap and writes wrap. Records from files cannot go to the socket with sendfile any more: they are read
 * into a buffer and encrypted like everything else. Confined to the processor thread.
 *
 * <p>Buffers: {@code netIn} (encrypted bytes from the socket, fill mode), {@code appIn} (decrypted bytes not read
 * yet, drain mode), {@code netOut} (encrypted bytes not written yet, drain mode).
 */
final class TlsTransport implements Transport {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    private static final int FILE_CHUNK_BYTES = 64 * 1024;

    private final SocketChannel socket;
    private final SSLEngine engine;
    private ByteBuffer netIn;
    private ByteBuffer appIn;
    private ByteBuffer netOut;
    private ByteBuffer fileChunk;
    private boolean ready;
    /** The last unwrap lacked bytes: what {@code netIn} holds is an incomplete TLS record. */
    private boolean partialRecord;

    TlsTransport(SocketChannel socket, SSLEngine engine) throws SSLException {
        this.socket = socket;
        this.engine = engine;
        SSLSession session = engine.getSession();
        this.netIn = ByteBuffer.allocate(session.getPacketBufferSize());
        this.netOut = ByteBuffer.allocate(session.getPacketBufferSize()).flip();
        this.appIn = ByteBuffer.allocate(session.getApplicationBufferSize()).flip();
        engine.beginHandshake();
    }

    @Override
    public boolean ready() {
        return ready;
    }

    @Override
    public int handshake() throws IOException {
        try {
            while (true) {
                if (!flush()) {
                    return SelectionKey.OP_WRITE;
                }
                HandshakeStatus status = engine.getHandshakeStatus();
                switch (status) {
                    case NEED_TASK -> runDelegatedTasks();
                    case NEED_WRAP -> wrap(EMPTY);
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                        if (!unwrapOrRead()) {
                            return SelectionKey.OP_READ;
                        }
                    }
                    case FINISHED, NOT_HANDSHAKING -> {
                        ready = true;
                        return 0;
                    }
                }
            }
        } catch (SSLException e) {
            sendAlert();
            throw e;
        }
    }

    /** Unwraps one record, reading from the socket if none is buffered; false if the socket has nothing yet. */
    private boolean unwrapOrRead() throws IOException {
        Status status = unwrap();
        if (status == Status.CLOSED) {
            throw new EOFException("the peer closed the TLS session during the handshake");
        }
        if (status != Status.BUFFER_UNDERFLOW) {
            return true;
        }
        int read = socket.read(netIn);
        if (read < 0) {
            throw new EOFException("connection closed by the peer during the TLS handshake");
        }
        return read > 0;
    }

    /** Best effort: tells the peer why the handshake failed (the engine has the alert ready to wrap). */
    private void sendAlert() {
        try {
            engine.closeOutbound();
            wrap(EMPTY);
            flush();
        } catch (IOException | RuntimeException ignored) {
            // the connection is closed anyway
        }
    }

    private void runDelegatedTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int read = drainAppIn(dst);
        boolean closed = false;
        while (dst.hasRemaining()) {
            Status status = unwrap();
            if (status == Status.OK) {
                respondToPostHandshakeMessages();
                read += drainAppIn(dst);
            } else if (status == Status.CLOSED) {
                closed = true;
                break;
            } else if (status == Status.BUFFER_UNDERFLOW) {
                int fromSocket = socket.read(netIn);
                if (fromSocket < 0) {
                    closed = true;
                    break;
                }
                if (fromSocket == 0) {
                    break;
                }
            }
        }
        return read == 0 && closed ? -1 : read;
    }

    /** A TLS 1.3 key update needs an answer; anything else after the handshake needs none. */
    private void respondToPostHandshakeMessages() throws IOException {
        HandshakeStatus status = engine.getHandshakeStatus();
        if (status == HandshakeStatus.NEED_TASK) {
            runDelegatedTasks();
        } else if (status == HandshakeStatus.NEED_WRAP) {
            wrap(EMPTY);
            flush();
        }
    }

    private int drainAppIn(ByteBuffer dst) {
        int n = Math.min(appIn.remaining(), dst.remaining());
        if (n > 0) {
            ByteBuffer slice = appIn.slice(appIn.position(), n);
            dst.put(slice);
            appIn.position(appIn.position() + n);
        }
        return n;
    }

    /** Unwraps what {@code netIn} holds into {@code appIn}, growing a buffer the engine finds too small. */
    private Status unwrap() throws SSLException {
        netIn.flip();
        appIn.compact();
        SSLEngineResult result;
        try {
            result = engine.unwrap(netIn, appIn);
        } finally {
            netIn.compact();
            appIn.flip();
        }
        partialRecord = result.getStatus() == Status.BUFFER_UNDERFLOW;
        if (result.getStatus() == Status.BUFFER_OVERFLOW) {
            appIn = grown(appIn, engine.getSession().getApplicationBufferSize());
        } else if (partialRecord && !netIn.hasRemaining()) {
            netIn = grownForFill(netIn, engine.getSession().getPacketBufferSize());
        }
        return result.getStatus();
    }

    private static ByteBuffer grown(ByteBuffer drainMode, int extra) {
        ByteBuffer bigger = ByteBuffer.allocate(drainMode.remaining() + extra);
        bigger.put(drainMode).flip();
        return bigger;
    }

    private static ByteBuffer grownForFill(ByteBuffer fillMode, int extra) {
        ByteBuffer bigger = ByteBuffer.allocate(fillMode.position() + extra);
        bigger.put(fillMode.flip());
        return bigger;
    }

    /** Encrypts as much of {@code src} as fits in {@code netOut}; returns the plaintext bytes consumed. */
    private int wrap(ByteBuffer src) throws IOException {
        netOut.compact();
        SSLEngineResult result;
        try {
            result = engine.wrap(src, netOut);
        } finally {
            netOut.flip();
        }
        if (result.getStatus() == Status.BUFFER_OVERFLOW && !netOut.hasRemaining()) {
            netOut = ByteBuffer.allocate(netOut.capacity() + engine.getSession().getPacketBufferSize()).flip();
        } else if (result.getStatus() == Status.CLOSED && src.hasRemaining()) {
            throw new EOFException("the TLS session is closed");
        }
        return result.bytesConsumed();
    }

    /** Writes pending encrypted bytes; true once none are left. */
    private boolean flush() throws IOException {
        while (netOut.hasRemaining()) {
            if (socket.write(netOut) == 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int written = 0;
        while (flush() && src.hasRemaining()) {
            written += wrap(src);
        }
        return written;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long written = 0;
        for (int i = offset; i < offset + length; i++) {
            written += write(srcs[i]);
            if (srcs[i].hasRemaining()) {
                break;
            }
        }
        flush();
        return written;
    }

    @Override
    public long write(ByteBuffer[] srcs) throws IOException {
        return write(srcs, 0, srcs.length);
    }

    /** File bytes go through the engine: read a chunk, encrypt what the socket takes, read the rest again next time. */
    @Override
    public long transferFrom(FileChannel fileChannel, long position, long count) throws IOException {
        if (!flush()) {
            return 0;
        }
        if (fileChunk == null) {
            fileChunk = ByteBuffer.allocateDirect(FILE_CHUNK_BYTES);
        }
        fileChunk.clear().limit((int) Math.min(FILE_CHUNK_BYTES, count));
        int read = fileChannel.read(fileChunk, position);
        if (read <= 0) {
            return 0;
        }
        fileChunk.flip();
        return write(fileChunk);
    }

    @Override
    public boolean hasPendingWrites() {
        return netOut.hasRemaining();
    }

    @Override
    public boolean hasBufferedInput() {
        return appIn.hasRemaining() || (netIn.position() > 0 && !partialRecord);
    }

    @Override
    public Optional<SSLSession> sslSession() {
        return ready ? Optional.of(engine.getSession()) : Optional.empty();
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    /** Sends close_notify if the socket takes it at once, then closes the socket. */
    @Override
    public void close() throws IOException {
        try {
            engine.closeOutbound();
            if (ready && flush()) {
                wrap(EMPTY);
                flush();
            }
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        } finally {
            socket.close();
        }
    }
}
