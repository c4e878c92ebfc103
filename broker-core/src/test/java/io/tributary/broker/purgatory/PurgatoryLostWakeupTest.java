package io.tributary.broker.purgatory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The race between a new watch and the removal of the last operation under the same key: the new
 * operation must end up where {@link Purgatory#checkAndComplete} finds it. A key whose {@code equals}
 * can be held up pins the moment between the watcher finding the key's set and adding to it.
 */
@Timeout(30)
class PurgatoryLostWakeupTest {
    private final Purgatory<GatedKey> purgatory = new Purgatory<>("lost-wakeup");

    @AfterEach
    void close() {
        purgatory.close();
    }

    /** Equal to every other GatedKey of its name; an armed one stops in {@code equals} until released. */
    private static final class GatedKey {
        private final String name;
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicBoolean armed = new AtomicBoolean();

        GatedKey(String name) {
            this.name = name;
        }

        @Override
        public boolean equals(Object other) {
            if (armed.compareAndSet(true, false)) {
                entered.countDown();
                try {
                    // Bounded: a map that holds a lock while comparing keys must not deadlock the test.
                    release.await(2, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return other instanceof GatedKey key && key.name.equals(name);
        }

        @Override
        public int hashCode() {
            return name.hashCode();
        }
    }

    private static DelayedFetch<Integer> waitFor(AtomicInteger available, CompletableFuture<Integer> result) {
        return new DelayedFetch<>(60_000, available::get, bytes -> bytes > 0, result::complete);
    }

    @Test
    void aWatchAddedWhileTheKeysLastOperationCompletesIsStillWokenUp() throws Exception {
        GatedKey key = new GatedKey("p0");
        AtomicInteger firstAvailable = new AtomicInteger();
        CompletableFuture<Integer> first = new CompletableFuture<>();
        DelayedFetch<Integer> firstOperation = waitFor(firstAvailable, first);
        purgatory.tryCompleteElseWatch(firstOperation, List.of(key));

        GatedKey sameKey = new GatedKey("p0");
        sameKey.armed.set(true);
        AtomicInteger secondAvailable = new AtomicInteger();
        CompletableFuture<Integer> second = new CompletableFuture<>();
        Thread watcher = new Thread(() -> purgatory.tryCompleteElseWatch(waitFor(secondAvailable, second), List.of(sameKey)));
        watcher.start();
        assertThat(sameKey.entered.await(10, TimeUnit.SECONDS)).isTrue();

        // The key's only operation completes and is unwatched while the watcher is between lookup and add.
        Thread completer = new Thread(firstOperation::forceComplete);
        completer.start();
        completer.join(500);
        sameKey.release.countDown();
        watcher.join(10_000);
        completer.join(10_000);
        assertThat(first).isDone();

        secondAvailable.set(1);
        purgatory.checkAndComplete(key);
        assertThat(second).isCompletedWithValue(1);
    }
}
