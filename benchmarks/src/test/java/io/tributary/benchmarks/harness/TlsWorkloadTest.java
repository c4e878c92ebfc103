package io.tributary.benchmarks.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.Test;

class TlsWorkloadTest {
    private static final TlsWorkload.Slot A_PLAINTEXT = new TlsWorkload.Slot(Side.BASELINE, SecurityProtocol.PLAINTEXT);
    private static final TlsWorkload.Slot A_SSL = new TlsWorkload.Slot(Side.BASELINE, SecurityProtocol.SSL);
    private static final TlsWorkload.Slot B_PLAINTEXT = new TlsWorkload.Slot(Side.CANDIDATE, SecurityProtocol.PLAINTEXT);
    private static final TlsWorkload.Slot B_SSL = new TlsWorkload.Slot(Side.CANDIDATE, SecurityProtocol.SSL);

    @Test
    void everyRoundMeasuresEachBrokerThroughEachListenerAndEvenRoundsRunBackwards() {
        assertThat(TlsWorkload.order(1)).containsExactly(A_PLAINTEXT, A_SSL, B_PLAINTEXT, B_SSL);
        assertThat(TlsWorkload.order(2)).containsExactly(B_SSL, B_PLAINTEXT, A_SSL, A_PLAINTEXT);
        assertThat(TlsWorkload.order(3)).isEqualTo(TlsWorkload.order(1));
    }

    @Test
    void eachListenerHasItsOwnMeasureOfTheSameWorkload() {
        assertThat(TlsWorkload.metric(MetricKind.PRODUCE_CPU, SecurityProtocol.SSL).label())
                .isEqualTo("broker CPU, produce 1KiB acks=all 1p SSL");
        assertThat(TlsWorkload.metric(MetricKind.CONSUME_THROUGHPUT, SecurityProtocol.PLAINTEXT).label())
                .isEqualTo("consume 1KiB 1p PLAINTEXT");
        assertThat(List.of(SecurityProtocol.PLAINTEXT, SecurityProtocol.SSL))
                .extracting(listener -> TlsWorkload.metric(MetricKind.CONSUME_CPU, listener)).doesNotHaveDuplicates();
    }

    @Test
    void theConsumeTopicFitsInOneSegmentSoThatPlaintextFetchesUseSendfile() {
        long recordsWithBatchOverhead = TlsWorkload.Plan.full().consumeRecords() * (TlsWorkload.CONSUME.recordBytes() + 100);
        assertThat(recordsWithBatchOverhead).isLessThan(TlsWorkload.SEGMENT_BYTES);
    }
}
