package io.tributary.consumer.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimiterTest {
    @Test
    void spacesCallsEvenlyAtTheRate() {
        FakeTime time = new FakeTime(0);
        RateLimiter limiter = new RateLimiter(time, 10);
        long start = time.milliseconds();

        for (int i = 0; i < 21; i++) {
            limiter.acquire();
        }

        // Call n is due at n/10 s: the 21st (n = 20) at 2 s.
        assertThat(time.milliseconds() - start).isEqualTo(2000);
    }

    @Test
    void catchesUpAfterAStallInsteadOfLoweringTheRate() {
        FakeTime time = new FakeTime(0);
        RateLimiter limiter = new RateLimiter(time, 10);
        limiter.acquire();
        time.sleep(1000); // the caller stalled for 10 slots

        long before = time.milliseconds();
        for (int i = 0; i < 10; i++) {
            limiter.acquire();
        }

        assertThat(time.milliseconds()).isEqualTo(before);
    }

    @Test
    void rejectsANonPositiveRate() {
        assertThatThrownBy(() -> new RateLimiter(new FakeTime(0), 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
