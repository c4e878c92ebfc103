package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SupervisedThreadsTest {
    private final SupervisedThreads threads = new SupervisedThreads();

    @Test
    void aThreadThatDiesIsReplacedUnderItsName() throws Exception {
        AtomicInteger replacements = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        String[] replacementName = new String[1];
        threads.start("worker", () -> {
            throw new OutOfMemoryError("dies at once");
        }, () -> () -> {
            replacements.incrementAndGet();
            replacementName[0] = Thread.currentThread().getName();
            awaitQuietly(release);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> replacements.get() == 1);
        assertThat(replacementName[0]).isEqualTo("worker");
        assertThat(threads.alive()).isEqualTo(1);
        threads.stop();
        release.countDown();
        threads.join(5_000);
        assertThat(threads.alive()).isZero();
        assertThat(replacements).hasValue(1);
    }

    @Test
    void aThreadThatReturnsBeforeStopIsReplacedToo() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        Runnable returnsTwiceThenWaits = () -> {
            if (runs.incrementAndGet() > 2) {
                awaitQuietly(release);
            }
        };
        threads.start("worker", returnsTwiceThenWaits, () -> returnsTwiceThenWaits);
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 3);
        threads.stop();
        release.countDown();
        threads.join(5_000);
        assertThat(runs).hasValue(3);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
