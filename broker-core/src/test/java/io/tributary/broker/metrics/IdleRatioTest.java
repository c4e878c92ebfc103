package io.tributary.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class IdleRatioTest {
    private static final long WINDOW = TimeUnit.SECONDS.toNanos(IdleRatio.WINDOW_SECONDS);

    @Test
    void reportsTheLastCompleteWindowOrTheCurrentOneBeforeIt() {
        AtomicLong now = new AtomicLong(1_000);
        IdleRatio idle = new IdleRatio(now::get);
        assertThat(idle.ratio()).as("no turn yet").isNaN();

        idle.record(900, 1000);
        idle.record(100, 1000);
        assertThat(idle.ratio()).as("the current window, before any is complete").isEqualTo(0.5);

        now.addAndGet(WINDOW);
        idle.record(0, 1000); // a busy turn in the next window
        assertThat(idle.ratio()).as("the window that just ended").isEqualTo(0.5);

        now.addAndGet(WINDOW);
        assertThat(idle.ratio()).as("the busy window").isEqualTo(0.0);
    }
}
