package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import org.apache.kafka.common.network.InvalidReceiveException;
import org.junit.jupiter.api.Test;

class FrameReaderTest {
    private final ReceiveBuffers buffers = new ReceiveBuffers();
    private final MemoryPool pool = new MemoryPool(1 << 20, () -> { });

    /** A socket that delivers its bytes at most {@code chunk} at a time, then nothing until more arrive, then EOF when closed. */
    private static final class TricklingChannel implements ReadableByteChannel {
        private final ByteBuffer bytes;
        private final int chunk;
        private boolean peerClosed;

        TricklingChannel(ByteBuffer bytes, int chunk) {
            this.bytes = bytes;
            this.chunk = chunk;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (!bytes.hasRemaining()) {
                return peerClosed ? -1 : 0;
            }
            int n = Math.min(chunk, Math.min(dst.remaining(), bytes.remaining()));
            dst.put(bytes.slice().limit(n));
            bytes.position(bytes.position() + n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            peerClosed = true;
        }
    }

    private static ByteBuffer frames(int... sizes) {
        int total = 0;
        for (int size : sizes) {
            total += 4 + size;
        }
        ByteBuffer out = ByteBuffer.allocate(total);
        for (int size : sizes) {
            out.putInt(size);
            for (int i = 0; i < size; i++) {
                out.put((byte) (size + i));
            }
        }
        return out.flip();
    }

    private static void assertFrameContent(ByteBuffer frame, int size) {
        assertThat(frame.position()).isZero();
        assertThat(frame.limit()).isEqualTo(size);
        for (int i = 0; i < size; i++) {
            assertThat(frame.get(i)).isEqualTo((byte) (size + i));
        }
    }

    @Test
    void assemblesFramesThatArriveInPiecesOneFrameAtATime() throws Exception {
        TricklingChannel socket = new TricklingChannel(frames(3, 20_000, 0), 3);
        FrameReader reader = new FrameReader(1 << 20, buffers, pool);
        int[] expected = {3, 20_000, 0};
        for (int size : expected) {
            int reads = 0;
            while (!reader.complete()) {
                assertThat(reader.readFrom(socket)).isPositive();
                reads++;
            }
            assertThat(reads).isGreaterThan(1);
            ByteBuffer frame = reader.takeFrame().payload();
            assertFrameContent(frame, size);
            assertThat(frame.isDirect()).isEqualTo(size >= ReceiveBuffers.MIN_POOLED_BYTES);
        }
        assertThat(reader.readFrom(socket)).isZero();
    }

    @Test
    void neverReadsBeyondTheCurrentFrame() throws Exception {
        ByteBuffer bytes = frames(10, 10);
        FrameReader reader = new FrameReader(1 << 20, buffers, pool);
        TricklingChannel socket = new TricklingChannel(bytes, Integer.MAX_VALUE);
        while (!reader.complete()) {
            reader.readFrom(socket);
        }
        assertFrameContent(reader.takeFrame().payload(), 10);
        assertThat(bytes.remaining()).isEqualTo(14);
    }

    @Test
    void rejectsSizesAboveTheLimitOrNegativeBeforeTakingABuffer() {
        FrameReader reader = new FrameReader(100, buffers, pool);
        assertThatThrownBy(() -> reader.readFrom(new TricklingChannel(frames(101), 1000)))
                .isInstanceOf(InvalidReceiveException.class).hasMessageContaining("101 larger than 100");
        FrameReader another = new FrameReader(100, buffers, pool);
        ByteBuffer negative = ByteBuffer.allocate(4).putInt(-1).flip();
        assertThatThrownBy(() -> another.readFrom(new TricklingChannel(negative, 4)))
                .isInstanceOf(InvalidReceiveException.class).hasMessageContaining("size = -1");
    }

    @Test
    void aClosedPeerEndsTheConnectionEvenMidFrame() throws Exception {
        ByteBuffer half = frames(50).limit(30);
        TricklingChannel socket = new TricklingChannel(half, 1000);
        FrameReader reader = new FrameReader(1 << 20, buffers, pool);
        reader.readFrom(socket);
        socket.close();
        assertThatThrownBy(() -> reader.readFrom(socket)).isInstanceOf(EOFException.class);
    }

    @Test
    void anAbandonedFrameHandsItsBufferBack() throws Exception {
        TricklingChannel socket = new TricklingChannel(frames(30_000).limit(10_000), 10_000);
        FrameReader reader = new FrameReader(1 << 20, buffers, pool);
        reader.readFrom(socket);
        assertThat(reader.complete()).isFalse();
        reader.abandon();
        assertThat(buffers.freeCount()).isEqualTo(1);
    }

    @Test
    void anAnnouncedSizeCostsOnlyTheBytesThatArrive() throws Exception {
        ByteBuffer prefixAndSome = ByteBuffer.allocate(4 + 1000).putInt(100_000_000).flip();
        FrameReader reader = new FrameReader(100 * 1024 * 1024, buffers, pool);
        TricklingChannel socket = new TricklingChannel(prefixAndSome, 10_000);
        reader.readFrom(socket);
        assertThat(reader.midFrame()).isTrue();
        assertThat(pool.used()).as("a size prefix alone").isZero();

        prefixAndSome.limit(prefixAndSome.capacity());
        reader.readFrom(socket);
        assertThat(reader.complete()).isFalse();
        assertThat(pool.used()).isEqualTo(FrameReader.MIN_BUFFER_BYTES);
        reader.abandon();
        assertThat(pool.used()).isZero();
    }

    @Test
    void aFrameHoldsAtMostFourTimesTheBytesItHasReceived() throws Exception {
        int size = 1_000_000;
        FrameReader reader = new FrameReader(1 << 20, buffers, pool);
        ByteBuffer bytes = frames(size);
        TricklingChannel socket = new TricklingChannel(bytes, 3_000);
        while (!reader.complete()) {
            reader.readFrom(socket);
            long received = bytes.position() - 4;
            assertThat(pool.used()).isLessThanOrEqualTo(Math.max(FrameReader.MIN_BUFFER_BYTES, FrameReader.GROWTH * received));
        }
        assertFrameContent(reader.takeFrame().payload(), size);
    }

    @Test
    void smallFramesAreReadEvenWhenThePoolIsFull() throws Exception {
        MemoryPool full = new MemoryPool(100_000, () -> { });
        MemoryPool.Reservation other = full.reserve();
        assertThat(other.grow(100_000)).isTrue();
        assertThat(other.grow(1)).isTrue(); // and the overdraft is taken
        FrameReader reader = new FrameReader(1 << 20, buffers, full);
        reader.readFrom(new TricklingChannel(frames(FrameReader.SMALL_FRAME_BYTES), 1_000_000));
        assertThat(reader.complete()).isTrue();
        assertThat(full.used()).isEqualTo(100_001 + FrameReader.SMALL_FRAME_BYTES);

        FrameReader large = new FrameReader(1 << 20, buffers, full);
        TricklingChannel socket = new TricklingChannel(frames(FrameReader.SMALL_FRAME_BYTES + 1), 1_000_000);
        large.readFrom(socket);
        assertThat(large.waitingForMemory()).isTrue();
        assertThat(socket.bytes.position()).isEqualTo(4);
    }

    @Test
    void growsInStepsAndWaitsForMemoryWhenThePoolIsShort() throws Exception {
        int size = 1_000_000;
        MemoryPool small = new MemoryPool(300_000, () -> { });
        MemoryPool.Reservation other = small.reserve();
        assertThat(other.grow(1)).isTrue(); // someone else holds memory, so this frame gets no overdraft
        MemoryPool.Reservation overdraftHolder = small.reserve();
        assertThat(overdraftHolder.grow(299_999)).isTrue();
        assertThat(overdraftHolder.grow(1)).isTrue();

        FrameReader reader = new FrameReader(1 << 20, buffers, small);
        TricklingChannel socket = new TricklingChannel(frames(size), 50_000);
        reader.readFrom(socket);
        assertThat(reader.waitingForMemory()).isTrue();
        assertThat(socket.bytes.position()).isEqualTo(4);

        overdraftHolder.release();
        while (!reader.complete()) {
            reader.readFrom(socket);
            assertThat(reader.waitingForMemory()).isFalse();
        }
        FrameReader.Frame frame = reader.takeFrame();
        assertFrameContent(frame.payload(), size);
        assertThat(small.used()).isEqualTo(1 + size);
        frame.release(buffers::release);
        assertThat(small.used()).isEqualTo(1);
    }
}
