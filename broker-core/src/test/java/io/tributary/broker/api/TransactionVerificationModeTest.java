package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.api.TransactionVerification.Mode;
import org.junit.jupiter.api.Test;

/**
 * What a partition leader asks the coordinator before a transactional write opens a transaction: Produce v12+
 * (transaction version 2) always has its partition added; older producers' writes are verified unless
 * transaction.partition.verification.enable is off, as Kafka decides it.
 */
class TransactionVerificationModeTest {
    @Test
    void producersOfVersionTwoAreAlwaysAddedOlderOnesVerifiedUnlessVerificationIsOff() {
        assertThat(Mode.of((short) 12, true)).isEqualTo(Mode.ADD);
        assertThat(Mode.of((short) 13, false)).isEqualTo(Mode.ADD);
        assertThat(Mode.of((short) 11, true)).isEqualTo(Mode.VERIFY);
        assertThat(Mode.of((short) 3, true)).isEqualTo(Mode.VERIFY);
        assertThat(Mode.of((short) 11, false)).isEqualTo(Mode.NONE);
    }
}
