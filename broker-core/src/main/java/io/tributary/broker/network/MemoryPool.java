package io.tributary.broker.network;

/**
 * The bytes of request frames being read or waiting to be handled, bounded by {@code queued.max.request.bytes}
 * and shared by every processor. A frame's memory is reserved as its bytes arrive ({@link FrameReader} grows
 * its buffer in steps), so a size prefix alone costs nothing; a connection whose next step does not fit stops
 * reading until memory is released, as Kafka's memory pool mutes it.
 *
 * <p>One frame at a time may go beyond the capacity (the overdraft), so that a frame larger than the pool, or
 * two large frames read at once, can always complete instead of waiting for each other forever. Small frames
 * ({@link #reserveUnrefused()}) are counted but never refused. The bytes in use therefore stay below the capacity
 * plus one {@code socket.request.max.bytes} plus one small frame per connection. Thread-safe.
 */
final class MemoryPool {
    /** {@code queued.max.request.bytes} of -1: no bound. */
    static final long UNBOUNDED = -1;

    private final long capacity;
    private final Runnable onFreed;
    private long used;
    private long peakUsed;
    private Reservation overdraft;
    private boolean starved;

    /** @param onFreed called (on the releasing thread) when memory frees after a reservation was refused */
    MemoryPool(long capacity, Runnable onFreed) {
        this.capacity = capacity;
        this.onFreed = onFreed;
    }

    /** A new, empty reservation for one frame, refused when the pool cannot spare what it asks for. */
    Reservation reserve() {
        return new Reservation(true);
    }

    /**
     * A new, empty reservation that is counted but never refused, for frames too small to be worth muting for
     * ({@link FrameReader#SMALL_FRAME_BYTES}): follower fetches, heartbeats and metadata requests then keep flowing
     * while large frames fill the pool.
     */
    Reservation reserveUnrefused() {
        return new Reservation(false);
    }

    synchronized long used() {
        return used;
    }

    /** The most bytes ever in use at once. */
    synchronized long peakUsed() {
        return peakUsed;
    }

    private synchronized boolean grow(Reservation reservation, long bytes) {
        boolean fits = capacity == UNBOUNDED || used + bytes <= capacity || !reservation.refusable;
        if (!fits && (overdraft == null || overdraft == reservation)) {
            overdraft = reservation;
            fits = true;
        }
        if (!fits) {
            starved = true;
            return false;
        }
        used += bytes;
        peakUsed = Math.max(peakUsed, used);
        return true;
    }

    private void release(Reservation reservation, long bytes) {
        boolean wake;
        synchronized (this) {
            used -= bytes;
            if (overdraft == reservation && (reservation.bytes == 0 || used <= capacity)) {
                overdraft = null;
            }
            wake = starved;
            starved = false;
        }
        if (wake) {
            onFreed.run();
        }
    }

    /**
     * The memory of one frame; confined to one thread at a time (the processor while the frame is read, then the
     * request handler that releases it).
     */
    final class Reservation {
        private final boolean refusable;
        private long bytes;

        private Reservation(boolean refusable) {
            this.refusable = refusable;
        }

        /** @return false (reserving nothing) if the pool cannot spare {@code more} bytes now */
        boolean grow(long more) {
            if (!MemoryPool.this.grow(this, more)) {
                return false;
            }
            bytes += more;
            return true;
        }

        long bytes() {
            return bytes;
        }

        /** Gives back all but {@code keep} bytes (if it holds more). */
        void shrinkTo(long keep) {
            if (bytes > keep) {
                long released = bytes - keep;
                bytes = keep;
                MemoryPool.this.release(this, released);
            }
        }

        /** Gives all of it back; a second call does nothing. */
        void release() {
            if (bytes > 0) {
                long released = bytes;
                bytes = 0;
                MemoryPool.this.release(this, released);
            }
        }
    }
}
