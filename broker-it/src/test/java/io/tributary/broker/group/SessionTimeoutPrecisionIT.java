package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that closes a static member (which sends no LeaveGroup), waits session.timeout.ms and deletes the group
 * must find it empty: the member's session ends at its deadline, not at the next sweep of a coarse timer.
 */
@Timeout(90)
class SessionTimeoutPrecisionIT {
    private static final int SESSION_TIMEOUT_MS = 1_500;
    private static final int ROUNDS = 5;
    /** Generous for a loaded two-core machine; a coarse sweep of the groups misses it now and then, a timer never. */
    private static final long TOLERANCE_MS = 100;

    private static TestBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of(BrokerConfig.GROUP_MIN_SESSION_TIMEOUT_MS, "1000",
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0", BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "1"));
        admin = Clients.admin(broker.bootstrapServers());
        admin.createTopics(List.of(new NewTopic("sessions", 1, (short) 1))).all().get();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aStaticMemberThatStoppedIsGoneWhenItsSessionTimeoutHasPassed() throws Exception {
        List<Long> latenessMs = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            String group = "sessions-" + round;
            long stoppedNanos;
            try (KafkaConsumer<byte[], byte[]> member = Clients.consumer(broker.bootstrapServers(), Map.of("group.id", group,
                    "group.instance.id", "member-" + round, "session.timeout.ms", SESSION_TIMEOUT_MS,
                    "heartbeat.interval.ms", 300, "enable.auto.commit", false))) {
                member.subscribe(List.of("sessions"));
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (member.assignment().isEmpty() && System.nanoTime() < deadline) {
                    member.poll(Duration.ofMillis(50));
                }
                assertThat(member.assignment()).as("assignment of " + group).isNotEmpty();
                member.commitSync(); // the member's last request: its session runs from here
                stoppedNanos = System.nanoTime();
            }
            // The admin has found the group's coordinator before the clock starts, so only the broker's timing counts.
            assertThat(admin.describeConsumerGroups(List.of(group)).all().get().get(group).members()).hasSize(1);
            sleepUntil(stoppedNanos + Duration.ofMillis(SESSION_TIMEOUT_MS).toNanos());
            latenessMs.add(deleteWhenEmpty(group, stoppedNanos + Duration.ofMillis(SESSION_TIMEOUT_MS).toNanos()));
        }
        System.out.println("session expiry lateness (ms, sent of the DeleteGroups that worked, retried every 5 ms): " + latenessMs);
        assertThat(latenessMs).allSatisfy(late -> assertThat(late).isLessThanOrEqualTo(TOLERANCE_MS));
    }

    /**
     * Deletes the group, retrying while it is not empty; returns how long after {@code dueNanos} the attempt that
     * worked was sent (the one before it still found the member).
     */
    private static long deleteWhenEmpty(String group, long dueNanos) throws Exception {
        long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            long attemptNanos = System.nanoTime();
            try {
                admin.deleteConsumerGroups(List.of(group)).all().get();
                return Math.max(0, Duration.ofNanos(attemptNanos - dueNanos).toMillis());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof GroupNotEmptyException) || System.nanoTime() > giveUp) {
                    throw e;
                }
                Thread.sleep(5);
            }
        }
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, Duration.ofNanos(left).toMillis()));
        }
    }
}
