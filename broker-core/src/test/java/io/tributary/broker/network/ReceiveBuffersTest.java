package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReceiveBuffersTest {
    private final ReceiveBuffers buffers = new ReceiveBuffers();

    @Test
    void smallAndHugeFramesGetHeapBuffersThatAreNotKept() {
        ByteBuffer small = buffers.take(ReceiveBuffers.MIN_POOLED_BYTES - 1);
        ByteBuffer huge = buffers.take(ReceiveBuffers.MAX_POOLED_BYTES + 1);
        assertThat(small.isDirect()).isFalse();
        assertThat(huge.isDirect()).isFalse();
        assertThat(huge.limit()).isEqualTo(ReceiveBuffers.MAX_POOLED_BYTES + 1);
        buffers.release(small);
        buffers.release(huge);
        assertThat(buffers.freeCount()).isZero();
    }

    @Test
    void aFreeBufferIsHandedOutOnceEvenIfAnotherFreeOneHasTheSameContent() {
        ByteBuffer large = buffers.take(128 * 1024);
        ByteBuffer small = buffers.take(64 * 1024);
        // Spent, as a frame's buffer is once its bytes moved to a bigger one: equal by ByteBuffer.equals.
        large.position(large.limit());
        small.position(small.limit());
        buffers.release(large);
        buffers.release(small);

        ByteBuffer first = buffers.take(100 * 1024); // only the large one fits
        ByteBuffer second = buffers.take(100 * 1024);

        assertThat(first).isSameAs(large);
        assertThat(second).as("a buffer two frames would share").isNotSameAs(first);
        buffers.release(first);
        buffers.release(second);
        assertThat(buffers.take(64 * 1024)).isSameAs(small);
    }

    @Test
    void produceSizedFramesReuseADirectBufferOnceItIsReleased() {
        ByteBuffer first = buffers.take(70_000);
        assertThat(first.isDirect()).isTrue();
        assertThat(first.position()).isZero();
        assertThat(first.limit()).isEqualTo(70_000);
        assertThat(first.capacity()).isGreaterThanOrEqualTo(70_000);
        ByteBuffer whileFirstIsInUse = buffers.take(70_000);
        assertThat(whileFirstIsInUse).isNotSameAs(first);

        first.position(123);
        buffers.release(first);
        ByteBuffer reused = buffers.take(65_000);
        assertThat(reused).isSameAs(first);
        assertThat(reused.position()).isZero();
        assertThat(reused.limit()).isEqualTo(65_000);
    }

    @Test
    void aFreeBufferTooSmallForTheFrameIsNotUsed() {
        ByteBuffer small = buffers.take(10_000);
        buffers.release(small);
        ByteBuffer large = buffers.take(500_000);
        assertThat(large).isNotSameAs(small);
        assertThat(large.capacity()).isGreaterThanOrEqualTo(500_000);
        assertThat(buffers.freeCount()).isEqualTo(1);
    }

    @Test
    void keepsOnlyTheLargestFewFreeBuffers() {
        List<ByteBuffer> taken = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            taken.add(buffers.take(i * 100_000));
        }
        taken.forEach(buffers::release);
        assertThat(buffers.freeCount()).isEqualTo(8);
        // The four smallest were dropped: the smallest frame now gets the smallest kept buffer (500,000 bytes or more).
        assertThat(buffers.take(ReceiveBuffers.MIN_POOLED_BYTES)).isSameAs(taken.get(4));
    }
}
