package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProduceWorkloadTest {

    @Test
    void theSingleBrokerGridCoversSizesAcksAndPartitions() {
        assertThat(ProduceWorkload.grid()).extracting(ProduceWorkload::name).containsExactly(
                "100B acks=1 1p", "100B acks=1 6p", "100B acks=all 1p", "100B acks=all 6p",
                "1KiB acks=1 1p", "1KiB acks=1 6p", "1KiB acks=all 1p", "1KiB acks=all 6p");
    }

    @Test
    void aReplicatedWorkloadIsNamedAndMeasuredApartFromItsSingleBrokerTwin() {
        ProduceWorkload replicated = new ProduceWorkload(100, "all", 6, 3);
        ProduceWorkload single = new ProduceWorkload(100, "all", 6);

        assertThat(replicated.name()).isEqualTo("100B acks=all 6p RF3");
        assertThat(replicated.topic()).isEqualTo("produce-100b-acksall-p6-rf3");
        assertThat(replicated.metric(MetricKind.PRODUCE_THROUGHPUT).replicationFactor()).isEqualTo(3);
        assertThat(replicated.metric(MetricKind.PRODUCE_THROUGHPUT)).isNotEqualTo(single.metric(MetricKind.PRODUCE_THROUGHPUT));
        assertThat(single.metric(MetricKind.PRODUCE_CPU).replicationFactor()).isEqualTo(1);
    }

    @Test
    void theReplicatedGridHasOnlyTheAcksSettingsAskedFor() {
        assertThat(ProduceWorkload.grid(3, List.of("all")))
                .extracting(ProduceWorkload::name)
                .containsExactly("100B acks=all 1p RF3", "100B acks=all 6p RF3", "1KiB acks=all 1p RF3", "1KiB acks=all 6p RF3");
    }
}
