package io.tributary.broker.network;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import org.apache.kafka.common.network.InvalidReceiveException;

/**
 * Reads one connection's size-prefixed frames: the 4-byte size, checked against {@code socket.request.max.bytes}
 * before a payload buffer is taken from the processor's {@link ReceiveBuffers}, then the payload. Confined to
 * the processor thread.
 */
final class FrameReader {
    private final ByteBuffer size = ByteBuffer.allocate(4);
    private final int maxFrameBytes;
    private final ReceiveBuffers buffers;
    private ByteBuffer payload;

    FrameReader(int maxFrameBytes, ReceiveBuffers buffers) {
        this.maxFrameBytes = maxFrameBytes;
        this.buffers = buffers;
    }

    /**
     * Reads what is available of the current frame.
     *
     * @return bytes read by this call (0 or more)
     * @throws InvalidReceiveException on a negative size or one above the limit
     * @throws EOFException            when the peer has closed its end
     */
    int readFrom(ReadableByteChannel channel) throws IOException {
        int read = 0;
        if (size.hasRemaining()) {
            read += readOrThrow(channel, size);
            if (size.hasRemaining()) {
                return read;
            }
            int frameBytes = size.getInt(0);
            if (frameBytes < 0) {
                throw new InvalidReceiveException("Invalid receive (size = " + frameBytes + ")");
            }
            if (frameBytes > maxFrameBytes) {
                throw new InvalidReceiveException("Invalid receive (size = " + frameBytes + " larger than " + maxFrameBytes + ")");
            }
            payload = buffers.take(frameBytes);
        }
        if (payload.hasRemaining()) {
            read += readOrThrow(channel, payload);
        }
        return read;
    }

    private static int readOrThrow(ReadableByteChannel channel, ByteBuffer into) throws IOException {
        int read = channel.read(into);
        if (read < 0) {
            throw new EOFException("connection closed by the peer");
        }
        return read;
    }

    boolean complete() {
        return !size.hasRemaining() && !payload.hasRemaining();
    }

    /** The complete frame's payload (position 0, limit its size); the reader starts on the next frame. */
    ByteBuffer takeFrame() {
        if (!complete()) {
            throw new IllegalStateException("the frame is not complete");
        }
        ByteBuffer frame = payload.flip();
        payload = null;
        size.clear();
        return frame;
    }

    /** Hands back the buffer of a frame that will not be completed (the connection is closing). */
    void abandon() {
        if (payload != null) {
            buffers.release(payload);
            payload = null;
        }
        size.clear();
    }
}
