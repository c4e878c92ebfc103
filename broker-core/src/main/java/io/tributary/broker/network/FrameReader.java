package io.tributary.broker.network;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import org.apache.kafka.common.network.InvalidReceiveException;

/**
 * Reads one connection's size-prefixed frames: the 4-byte size, checked against {@code socket.request.max.bytes},
 * then the payload. The size is a limit, not an allocation: the payload buffer starts at {@link #FIRST_STEP_BYTES}
 * (or the frame's size, if smaller) and grows by {@link #GROWTH} as bytes arrive, each step reserved from the
 * {@link MemoryPool} first and its buffer taken from the processor's {@link ReceiveBuffers}. A size prefix with
 * a few bytes behind it therefore holds a few kilobytes, whatever it announced. Confined to the processor thread.
 */
final class FrameReader {
    static final int FIRST_STEP_BYTES = 64 * 1024;
    static final int GROWTH = 4;

    /** A complete frame's payload (position 0, limit its size) and the pool memory it holds until released. */
    record Frame(ByteBuffer payload, MemoryPool.Reservation memory) {
        /** Hands the buffer back for reuse and the memory back to the pool; call once nothing reads the payload. */
        void release(ReceiveBuffers buffers) {
            buffers.release(payload);
            memory.release();
        }
    }

    private final ByteBuffer size = ByteBuffer.allocate(4);
    private int maxFrameBytes;
    private final ReceiveBuffers buffers;
    private final MemoryPool pool;
    private int frameBytes;
    private ByteBuffer payload;
    private MemoryPool.Reservation memory;
    private boolean waitingForMemory;

    FrameReader(int maxFrameBytes, ReceiveBuffers buffers, MemoryPool pool) {
        this.maxFrameBytes = maxFrameBytes;
        this.buffers = buffers;
        this.pool = pool;
    }

    /** Changes the size limit for frames not started yet (lower until a connection has authenticated). */
    void maxFrameBytes(int bytes) {
        maxFrameBytes = bytes;
    }

    /**
     * Reads what is available of the current frame, or what fits in the memory the pool can spare: when it
     * cannot grow the buffer, {@link #waitingForMemory()} is true until a later call succeeds.
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
            frameBytes = size.getInt(0);
            if (frameBytes < 0) {
                throw new InvalidReceiveException("Invalid receive (size = " + frameBytes + ")");
            }
            if (frameBytes > maxFrameBytes) {
                throw new InvalidReceiveException("Invalid receive (size = " + frameBytes + " larger than " + maxFrameBytes + ")");
            }
            memory = pool.reserve();
        }
        while (!complete()) {
            if ((payload == null || !payload.hasRemaining()) && !grow()) {
                waitingForMemory = true;
                return read;
            }
            int n = readOrThrow(channel, payload);
            read += n;
            if (n == 0) {
                break;
            }
        }
        waitingForMemory = false;
        return read;
    }

    /** Moves the payload into a buffer of the next step's size, if the pool spares the difference. */
    private boolean grow() {
        int current = payload == null ? 0 : payload.limit();
        int next = (int) Math.min(frameBytes, Math.max(FIRST_STEP_BYTES, (long) current * GROWTH));
        if (!memory.grow(next - current)) {
            return false;
        }
        ByteBuffer grown = buffers.take(next);
        if (payload != null) {
            grown.put(payload.flip());
            buffers.release(payload);
        }
        payload = grown;
        waitingForMemory = false;
        return true;
    }

    private static int readOrThrow(ReadableByteChannel channel, ByteBuffer into) throws IOException {
        int read = channel.read(into);
        if (read < 0) {
            throw new EOFException("connection closed by the peer");
        }
        return read;
    }

    /** True once the size and all of the payload have been read. */
    boolean complete() {
        return !size.hasRemaining() && payload != null && payload.limit() == frameBytes && !payload.hasRemaining();
    }

    /** True if the last read stopped because the pool could not spare the next step. */
    boolean waitingForMemory() {
        return waitingForMemory;
    }

    /** True while a frame has been started (its size read, at least) but not completed. */
    boolean midFrame() {
        return size.position() > 0 && !complete();
    }

    /** The complete frame; the reader starts on the next one. */
    Frame takeFrame() {
        if (!complete()) {
            throw new IllegalStateException("the frame is not complete");
        }
        Frame frame = new Frame(payload.flip(), memory);
        payload = null;
        memory = null;
        size.clear();
        return frame;
    }

    /** Hands back the buffer and memory of a frame that will not be completed (the connection is closing). */
    void abandon() {
        if (payload != null) {
            buffers.release(payload);
            payload = null;
        }
        if (memory != null) {
            memory.release();
            memory = null;
        }
        waitingForMemory = false;
        size.clear();
    }
}
