package io.tributary.broker.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Time;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Wake-ups on the real clock: bounds are generous for a loaded machine, and no check runs before its deadline. */
@Timeout(30)
class DeadlineWakeupsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long LATE_TOLERANCE_MS = 1_000;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final DeadlineWakeups wakeups = new DeadlineWakeups(timer, Time.SYSTEM, "test check");
    private final List<Long> checkedAtMs = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void theCheckRunsAtTheDeadlineAskedFor() {
        wakeups.checkWith(() -> record(Long.MAX_VALUE));
        long deadline = System.currentTimeMillis() + 300;
        wakeups.wakeBy(deadline);
        Awaitility.await().atMost(WAIT).until(() -> checkedAtMs.size() == 1);
        assertThat(checkedAtMs.get(0)).isBetween(deadline, deadline + LATE_TOLERANCE_MS);
    }

    @Test
    void anEarlierDeadlineReplacesALaterOneAndALaterOneChangesNothing() throws Exception {
        wakeups.checkWith(() -> record(Long.MAX_VALUE));
        long now = System.currentTimeMillis();
        wakeups.wakeBy(now + 20_000);
        wakeups.wakeBy(now + 200);
        wakeups.wakeBy(now + 10_000);
        Awaitility.await().atMost(WAIT).until(() -> checkedAtMs.size() == 1);
        assertThat(checkedAtMs.get(0)).isBetween(now + 200, now + 200 + LATE_TOLERANCE_MS);
        // The replaced wake-ups are gone: nothing else runs.
        Awaitility.await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> checkedAtMs.size() == 1);
    }

    @Test
    void theDeadlineTheCheckReturnsArmsTheNextWakeUp() {
        long now = System.currentTimeMillis();
        AtomicInteger runs = new AtomicInteger();
        wakeups.checkWith(() -> record(runs.incrementAndGet() == 1 ? now + 400 : Long.MAX_VALUE));
        wakeups.wakeBy(now + 100);
        Awaitility.await().atMost(WAIT).until(() -> checkedAtMs.size() == 2);
        assertThat(checkedAtMs.get(1)).isBetween(now + 400, now + 400 + LATE_TOLERANCE_MS);
    }

    @Test
    void aFailingCheckIsTriedAgain() {
        AtomicInteger runs = new AtomicInteger();
        wakeups.checkWith(() -> {
            if (runs.incrementAndGet() == 1) {
                throw new IllegalStateException("first check fails");
            }
            return record(Long.MAX_VALUE);
        });
        wakeups.wakeBy(System.currentTimeMillis());
        Awaitility.await().atMost(WAIT).until(() -> checkedAtMs.size() == 1);
        assertThat(runs).hasValue(2);
    }

    private long record(long next) {
        checkedAtMs.add(System.currentTimeMillis());
        return next;
    }
}
