package io.tributary.broker.network;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import javax.net.ssl.SSLSession;

/**
 * The plaintext {@link Transport}: lets kafka-clients' {@code Send}s write to a plain socket. File-backed records go
 * through {@link FileChannel#transferTo}, i.e. sendfile: their bytes never enter the Java heap.
 */
final class SocketChannelTransfer implements Transport {
    private final SocketChannel socket;

    SocketChannelTransfer(SocketChannel socket) {
        this.socket = socket;
    }

    @Override
    public boolean ready() {
        return true;
    }

    @Override
    public int handshake() {
        return 0;
    }

    @Override
    public boolean hasBufferedInput() {
        return false;
    }

    @Override
    public Optional<SSLSession> sslSession() {
        return Optional.empty();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return socket.read(dst);
    }

    @Override
    public long transferFrom(FileChannel fileChannel, long position, long count) throws IOException {
        return fileChannel.transferTo(position, count, socket);
    }

    @Override
    public boolean hasPendingWrites() {
        return false;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return socket.write(srcs, offset, length);
    }

    @Override
    public long write(ByteBuffer[] srcs) throws IOException {
        return socket.write(srcs);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return socket.write(src);
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
