package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.chaos.load.Ack;
import org.junit.jupiter.api.Test;

class AckCheckerTest {
    private static final Set<String> SENT = Set.of("java-0", "java-1", "java-2", "java-3", "kafkajs-0", "kafkajs-1");

    private static AckFindings check(List<Ack> acks, List<StoredRecord> partition0) {
        return AckChecker.check(acks, Map.of(0, partition0), SENT::contains);
    }

    @Test
    void aLogHoldingEveryAcknowledgedRecordOnceInOrderIsClean() {
        AckFindings findings = check(List.of(new Ack("java-0", 0, 0, 0), new Ack("kafkajs-0", 0, 1, 0), new Ack("java-1", 0, 2, 0)),
                List.of(new StoredRecord(0, "java-0"), new StoredRecord(1, "kafkajs-0"), new StoredRecord(2, "java-1"),
                        new StoredRecord(3, "java-2")));
        assertThat(findings.clean()).as(findings.toString()).isTrue();
        assertThat(findings.acknowledged()).isEqualTo(3);
    }

    @Test
    void findsEachKindOfViolation() {
        AckFindings findings = check(
                List.of(new Ack("java-0", 0, 0, 0), new Ack("java-1", 0, 1, 0), new Ack("java-2", 0, 3, 0), new Ack("java-3", 0, -1, 0)),
                List.of(new StoredRecord(0, "java-0"), new StoredRecord(1, "java-2"), new StoredRecord(2, "java-1"),
                        new StoredRecord(3, "java-2"), new StoredRecord(4, "forged-7")));
        assertThat(findings.lost()).as("java-3: acknowledged (with offset -1), not stored").isEqualTo(1);
        assertThat(findings.moved()).as("java-1 acknowledged at 1, stored at 2").isEqualTo(1);
        assertThat(findings.duplicated()).as("java-2 twice").isEqualTo(1);
        assertThat(findings.outOfOrder()).as("java-1 after java-2").isEqualTo(1);
        assertThat(findings.neverSent()).as("forged-7").isEqualTo(1);
        assertThat(findings.clean()).isFalse();
        assertThat(findings.examples()).anyMatch(e -> e.startsWith("lost: java-3"));
    }

    @Test
    void aRecordInAnotherPartitionThanAcknowledgedIsLost() {
        AckFindings findings = AckChecker.check(List.of(new Ack("java-0", 1, 0, 0)), Map.of(0, List.of(new StoredRecord(0, "java-0")),
                1, List.of()), SENT::contains);
        assertThat(findings.lost()).isEqualTo(1);
    }
}
