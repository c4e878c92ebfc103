package io.tributary.broker.network;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The payload buffers of one processor's request frames. Produce-sized frames (from {@link #MIN_POOLED_BYTES}
 * to {@link #MAX_POOLED_BYTES}) get direct buffers that are handed back once their request is answered and
 * reused: a direct buffer saves the JDK's copies between heap and native memory on the socket read and again
 * on the segment write, and reuse saves zeroing a fresh buffer per request. A frame gets the smallest free
 * buffer that holds it; a handful of free buffers are kept, the largest ones. Smaller and larger frames get
 * heap buffers, left to the GC. Confined to the processor thread.
 */
final class ReceiveBuffers {
    static final int MIN_POOLED_BYTES = 8 * 1024;
    static final int MAX_POOLED_BYTES = 2 * 1024 * 1024;
    /** Direct buffers are allocated in steps of this size, so that one buffer fits frames of similar sizes. */
    private static final int ALLOCATION_STEP = 64 * 1024;
    private static final int MAX_FREE = 8;

    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private ByteBuffer scratch;

    /**
     * The processor's one scratch buffer (direct, {@link FrameReader#FIRST_STEP_BYTES}), cleared and limited to
     * {@code limit}: a frame's first bytes land here before the frame knows how much memory to keep for them.
     * Its content is valid until the next call.
     */
    ByteBuffer scratch(int limit) {
        if (scratch == null) {
            scratch = ByteBuffer.allocateDirect(FrameReader.FIRST_STEP_BYTES);
        }
        return scratch.clear().limit(limit);
    }

    /** A buffer with position 0 and limit {@code size}; give it back with {@link #release} once nothing reads it. */
    ByteBuffer take(int size) {
        if (size < MIN_POOLED_BYTES || size > MAX_POOLED_BYTES) {
            return ByteBuffer.allocate(size);
        }
        ByteBuffer bestFit = null;
        for (ByteBuffer buffer : free) {
            if (buffer.capacity() >= size && (bestFit == null || buffer.capacity() < bestFit.capacity())) {
                bestFit = buffer;
            }
        }
        if (bestFit != null) {
            removeThis(bestFit);
            return bestFit.clear().limit(size);
        }
        int capacity = (size + ALLOCATION_STEP - 1) / ALLOCATION_STEP * ALLOCATION_STEP;
        return ByteBuffer.allocateDirect(capacity).limit(size);
    }

    /** Keeps a pooled buffer for reuse (if it is among the largest free ones); heap buffers are left to the GC. */
    void release(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            return;
        }
        if (free.size() == MAX_FREE) {
            ByteBuffer smallest = free.stream().min((a, b) -> Integer.compare(a.capacity(), b.capacity())).orElseThrow();
            if (smallest.capacity() >= buffer.capacity()) {
                return;
            }
            removeThis(smallest);
        }
        free.push(buffer);
    }

    // By identity: ByteBuffer.equals compares the bytes left, and every spent buffer (nothing left) equals every
    // other, so remove(Object) could drop another one and hand this one out twice.
    private void removeThis(ByteBuffer buffer) {
        free.removeIf(candidate -> candidate == buffer);
    }

    /** Free buffers kept for reuse. */
    int freeCount() {
        return free.size();
    }
}
