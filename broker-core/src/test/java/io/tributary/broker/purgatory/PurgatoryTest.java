package io.tributary.broker.purgatory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PurgatoryTest {
    private final Purgatory<String> purgatory = new Purgatory<>("test");

    @AfterEach
    void close() {
        purgatory.close();
    }

    /** A fetch-like operation: "available" bytes must reach the minimum. */
    private static DelayedFetch<Integer> waitFor(AtomicInteger available, int minimum, long maxWaitMs, CompletableFuture<Integer> result) {
        return new DelayedFetch<>(maxWaitMs, available::get, bytes -> bytes >= minimum, result::complete);
    }

    @Test
    void completesAtOnceWhenAlreadySatisfied() {
        AtomicInteger available = new AtomicInteger(10);
        CompletableFuture<Integer> result = new CompletableFuture<>();
        assertThat(purgatory.tryCompleteElseWatch(waitFor(available, 5, 60_000, result), List.of("p0"))).isTrue();
        assertThat(result).isCompletedWithValue(10);
        assertThat(purgatory.watched()).isZero();
    }

    @Test
    void completesWhenAWatchedKeyChangesEnough() {
        AtomicInteger available = new AtomicInteger();
        CompletableFuture<Integer> result = new CompletableFuture<>();
        purgatory.tryCompleteElseWatch(waitFor(available, 5, 60_000, result), List.of("p0", "p1"));
        assertThat(purgatory.watched()).isEqualTo(2);

        available.set(3);
        purgatory.checkAndComplete("p1");
        assertThat(result).isNotDone();

        available.set(6);
        purgatory.checkAndComplete("other");
        assertThat(result).isNotDone();
        purgatory.checkAndComplete("p0");
        assertThat(result).isCompletedWithValue(6);
        assertThat(purgatory.watched()).isZero();
    }

    @Test
    void answersWithWhatThereIsAtTheDeadline() {
        AtomicInteger available = new AtomicInteger(2);
        CompletableFuture<Integer> result = new CompletableFuture<>();
        long start = System.nanoTime();
        purgatory.tryCompleteElseWatch(waitFor(available, 5, 200, result), List.of("p0"));
        assertThat(result.join()).isEqualTo(2);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(190));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> purgatory.watched() == 0);
    }

    @Test
    void completesExactlyOnceUnderRacingChecks() throws Exception {
        AtomicInteger available = new AtomicInteger();
        AtomicInteger answers = new AtomicInteger();
        AtomicReference<Integer> answer = new AtomicReference<>();
        DelayedFetch<Integer> operation = new DelayedFetch<>(60_000, available::get, bytes -> bytes > 0, value -> {
            answers.incrementAndGet();
            answer.set(value);
        });
        purgatory.tryCompleteElseWatch(operation, List.of("p0"));
        available.set(1);
        Thread[] checkers = new Thread[8];
        for (int i = 0; i < checkers.length; i++) {
            checkers[i] = new Thread(() -> purgatory.checkAndComplete("p0"));
            checkers[i].start();
        }
        for (Thread checker : checkers) {
            checker.join();
        }
        operation.forceComplete();
        assertThat(answers).hasValue(1);
        assertThat(answer).hasValue(1);
    }

    @Test
    void closingAnswersEveryoneStillWaiting() {
        AtomicInteger available = new AtomicInteger();
        CompletableFuture<Integer> first = new CompletableFuture<>();
        CompletableFuture<Integer> second = new CompletableFuture<>();
        purgatory.tryCompleteElseWatch(waitFor(available, 5, 60_000, first), List.of("p0"));
        purgatory.tryCompleteElseWatch(waitFor(available, 5, 60_000, second), List.of("p1"));
        purgatory.close();
        assertThat(first).isCompletedWithValue(0);
        assertThat(second).isCompletedWithValue(0);
    }
}
