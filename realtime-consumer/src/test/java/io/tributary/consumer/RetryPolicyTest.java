package io.tributary.consumer;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPolicyTest {
    @Test
    void backoffDoublesUpToTheCap() {
        RetryPolicy policy = RetryPolicy.exponential(10, Duration.ofMillis(100), Duration.ofMillis(700));

        assertThat(policy.backoffBefore(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(policy.backoffBefore(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(policy.backoffBefore(3)).isEqualTo(Duration.ofMillis(400));
        assertThat(policy.backoffBefore(4)).isEqualTo(Duration.ofMillis(700));
        assertThat(policy.backoffBefore(60)).isEqualTo(Duration.ofMillis(700));
    }

    @Test
    void noneMeansNoRetry() {
        assertThat(RetryPolicy.none().maxRetries()).isZero();
    }

    @Test
    void rejectsInconsistentSettings() {
        assertThatThrownBy(() -> RetryPolicy.exponential(-1, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.exponential(1, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.none().backoffBefore(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
