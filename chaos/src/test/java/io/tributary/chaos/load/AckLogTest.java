package io.tributary.chaos.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AckLogTest {
    private static void acknowledge(AckLog log, int partition, long ackNanos) {
        log.acknowledged(new Ack("java-" + ackNanos, partition, 0, ackNanos));
    }

    @Test
    void aPartitionRecoversAtItsFirstAcknowledgementAfterTheStartNotWhenSomeoneAsks() throws Exception {
        AckLog log = new AckLog(3);
        try (RecoveryClock clock = log.startRecoveryClock()) {
            long start = clock.startNanos();
            acknowledge(log, 0, start - 1);
            acknowledge(log, 0, start + Duration.ofSeconds(3).toNanos());
            acknowledge(log, 0, start + Duration.ofSeconds(4).toNanos());
            acknowledge(log, 1, start + Duration.ofSeconds(1).toNanos());
            acknowledge(log, 2, start);
            // Asked long after the partitions were served again (as after a broker restart that takes a while).
            assertThat(clock.await(Duration.ofSeconds(60)))
                    .containsExactly(Optional.of(Duration.ofSeconds(3)), Optional.of(Duration.ofSeconds(1)), Optional.of(Duration.ZERO));
        }
    }

    @Test
    void aPartitionNotAcknowledgedWithinTheWindowHasNoRecovery() throws Exception {
        AckLog log = new AckLog(2);
        try (RecoveryClock clock = log.startRecoveryClock()) {
            acknowledge(log, 0, clock.startNanos() + Duration.ofMillis(10).toNanos());
            acknowledge(log, 1, clock.startNanos() + Duration.ofMillis(200).toNanos());
            assertThat(clock.await(Duration.ofMillis(100))).containsExactly(Optional.of(Duration.ofMillis(10)), Optional.empty());
        }
    }

    @Test
    void theLongestGapCountsFromTheStart() throws Exception {
        AckLog log = new AckLog(1);
        try (RecoveryClock clock = log.startRecoveryClock()) {
            long start = clock.startNanos();
            acknowledge(log, 0, start + Duration.ofSeconds(2).toNanos());
            acknowledge(log, 0, start + Duration.ofSeconds(9).toNanos());
            acknowledge(log, 0, start + Duration.ofSeconds(4).toNanos()); // late from another client: no gap of its own
            acknowledge(log, 0, start + Duration.ofSeconds(10).toNanos());
            assertThat(clock.longestGaps()).containsExactly(Duration.ofSeconds(7));
        }
    }

    @Test
    void aClosedClockCountsNothingMore() throws Exception {
        AckLog log = new AckLog(1);
        RecoveryClock clock = log.startRecoveryClock();
        clock.close();
        acknowledge(log, 0, clock.startNanos() + 1);
        assertThat(clock.await(Duration.ZERO)).containsExactly(Optional.empty());
    }
}
