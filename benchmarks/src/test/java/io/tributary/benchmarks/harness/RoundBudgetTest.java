package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class RoundBudgetTest {
    private final AtomicLong clock = new AtomicLong(1_000);
    private final RoundBudget budget = new RoundBudget(clock::get, Duration.ofSeconds(100));

    @Test
    void theFirstTwoRoundsAlwaysRunEvenPastTheShare() {
        advance(Duration.ofSeconds(99));
        assertThat(budget.allowsAnother(0, Duration.ZERO, 0.5)).isTrue();
        assertThat(budget.allowsAnother(1, Duration.ofSeconds(30), 0.5)).isTrue();
    }

    @Test
    void anotherRoundRunsOnlyIfOneAsLongAsTheLastEndsWithinTheShare() {
        advance(Duration.ofSeconds(40));
        assertThat(budget.allowsAnother(2, Duration.ofSeconds(10), 0.5)).isTrue();
        assertThat(budget.allowsAnother(2, Duration.ofSeconds(11), 0.5)).isFalse();
        assertThat(budget.allowsAnother(5, Duration.ofSeconds(11), 0.6)).isTrue();
    }

    private void advance(Duration by) {
        clock.addAndGet(by.toNanos());
    }
}
