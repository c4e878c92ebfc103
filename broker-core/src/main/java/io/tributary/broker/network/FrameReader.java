package io.tributary.broker.network;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.function.Consumer;
import org.apache.kafka.common.network.InvalidReceiveException;

/**
 * Reads one connection's size-prefixed frames: the 4-byte size, checked against {@code socket.request.max.bytes},
 * then the payload. The size is a limit, not an allocation, and memory is held only for bytes that have arrived:
 * the first bytes of a payload (up to {@link #FIRST_STEP_BYTES}) are read into the processor's scratch buffer, the
 * frame keeps a buffer of about their size, and the buffer grows by {@link #GROWTH} as it fills, each step
 * reserved from the {@link MemoryPool} first and its buffer taken from the processor's {@link ReceiveBuffers}. A
 * size prefix alone holds nothing, and a frame holds at most {@link #GROWTH} times the bytes it has received (at
 * least {@link #MIN_BUFFER_BYTES}). Frames of at most {@link #SMALL_FRAME_BYTES} are counted in the pool but
 * never refused, so a pool filled by large or half-sent requests never mutes follower fetches, heartbeats or
 * metadata requests. Confined to the processor thread.
 */
final class FrameReader {
    static final int FIRST_STEP_BYTES = 64 * 1024;
    static final int GROWTH = 4;
    static final int MIN_BUFFER_BYTES = 1024;
    static final int SMALL_FRAME_BYTES = 16 * 1024;

    /** A complete frame's payload (position 0, limit its size) and the pool memory it holds until released. */
    record Frame(ByteBuffer payload, MemoryPool.Reservation memory) {
        /**
         * Gives the memory back to the pool and the buffer to {@code returnBuffer}, from any thread; call once
         * nothing reads the payload.
         */
        void release(Consumer<ByteBuffer> returnBuffer) {
            memory.release();
            returnBuffer.accept(payload);
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
            memory = frameBytes <= SMALL_FRAME_BYTES ? pool.reserveUnrefused() : pool.reserve();
        }
        if (payload == null) {
            int first = readFirstBytes(channel);
            if (first < 0) {
                waitingForMemory = true;
                return read;
            }
            read += first;
            if (payload == null) {
                return read; // nothing has arrived behind the size: nothing is held
            }
        }
        while (!complete()) {
            if (!payload.hasRemaining() && !grow()) {
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

    /**
     * Reads the payload's first bytes into the scratch buffer, with the memory for a full first step reserved
     * while it reads, then keeps a buffer of about the size of what arrived and gives the rest back.
     *
     * @return bytes read, or -1 if the pool cannot spare the first step now (nothing is read or held then)
     */
    private int readFirstBytes(ReadableByteChannel channel) throws IOException {
        int want = Math.min(frameBytes, FIRST_STEP_BYTES);
        if (!memory.grow(want)) {
            return -1;
        }
        ByteBuffer scratch = buffers.scratch(want);
        int n = readOrThrow(channel, scratch);
        if (n == 0 && want > 0) {
            memory.release();
            return 0;
        }
        int keep = n == frameBytes ? n : Math.min(want, (n + MIN_BUFFER_BYTES - 1) / MIN_BUFFER_BYTES * MIN_BUFFER_BYTES);
        memory.shrinkTo(keep);
        payload = buffers.take(keep);
        payload.put(scratch.flip());
        return n;
    }

    /** Moves the payload into a buffer of the next step's size, if the pool spares the difference. */
    private boolean grow() {
        int current = payload.limit();
        int next = (int) Math.min(frameBytes, (long) current * GROWTH);
        if (!memory.grow(next - current)) {
            return false;
        }
        ByteBuffer grown = buffers.take(next);
        grown.put(payload.flip());
        buffers.release(payload);
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
