package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MemoryPoolTest {
    private final AtomicInteger wakeUps = new AtomicInteger();
    private final MemoryPool pool = new MemoryPool(1000, wakeUps::incrementAndGet);

    @Test
    void reservationsThatFitSucceedAndTheRestWaitForAWakeUp() {
        MemoryPool.Reservation first = pool.reserve();
        MemoryPool.Reservation second = pool.reserve();
        assertThat(first.grow(600)).isTrue();
        assertThat(second.grow(400)).isTrue();
        MemoryPool.Reservation third = pool.reserve();
        assertThat(third.grow(1)).isTrue(); // the overdraft: one reservation may go beyond the capacity
        assertThat(pool.reserve().grow(1)).isFalse();
        assertThat(wakeUps).hasValue(0);

        second.release();
        assertThat(wakeUps).hasValue(1);
        assertThat(pool.used()).isEqualTo(601);
        assertThat(pool.peakUsed()).isEqualTo(1001);
        second.release();
        assertThat(pool.used()).isEqualTo(601);
    }

    @Test
    void onlyOneReservationAtATimeGoesBeyondTheCapacity() {
        MemoryPool.Reservation big = pool.reserve();
        assertThat(big.grow(900)).isTrue();
        assertThat(big.grow(5000)).isTrue();
        MemoryPool.Reservation another = pool.reserve();
        assertThat(another.grow(1)).isFalse();
        big.release();
        assertThat(another.grow(1000)).isTrue();
        assertThat(another.grow(1)).isTrue(); // the overdraft is free again
    }

    @Test
    void minusOneMeansNoBound() {
        MemoryPool unbounded = new MemoryPool(MemoryPool.UNBOUNDED, () -> { });
        assertThat(unbounded.reserve().grow(Long.MAX_VALUE / 2)).isTrue();
        assertThat(unbounded.reserve().grow(Long.MAX_VALUE / 4)).isTrue();
    }
}
