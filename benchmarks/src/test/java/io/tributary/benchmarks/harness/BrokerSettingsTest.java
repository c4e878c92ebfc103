package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BrokerSettingsTest {

    @Test
    void aSingleBrokerNeedsOneReplicaInSync() {
        assertThat(BrokerSettings.standard().brokerProperties())
                .containsEntry("default.replication.factor", "1")
                .containsEntry("min.insync.replicas", "1")
                .containsEntry("offsets.topic.replication.factor", "1");
        assertThat(BrokerSettings.standard().brokers()).isEqualTo(1);
    }

    @Test
    void threeReplicasNeedTwoInSyncAndReplicateTheOffsetsTopicToo() {
        BrokerSettings replicated = BrokerSettings.replicated();
        assertThat(replicated.brokers()).isEqualTo(3);
        assertThat(replicated.brokerProperties())
                .containsEntry("default.replication.factor", "3")
                .containsEntry("min.insync.replicas", "2")
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("transaction.state.log.replication.factor", "3")
                .containsEntry("transaction.state.log.min.isr", "2")
                .containsEntry("log.segment.bytes", BrokerSettings.standard().brokerProperties().get("log.segment.bytes"));
    }

    @Test
    void bothSidesFormGroupsWithoutWaitingForMoreMembers() {
        assertThat(BrokerSettings.standard().brokerProperties()).containsEntry("group.initial.rebalance.delay.ms", "0");
    }

    @Test
    void aWorkloadMayTurnAFeatureOffOnOneBrokerWithoutChangingTheOthers() {
        BrokerSettings off = BrokerSettings.standard().with("max.incremental.fetch.session.cache.slots", "0");
        assertThat(off.brokerProperties()).containsEntry("max.incremental.fetch.session.cache.slots", "0")
                .containsEntry("min.insync.replicas", "1");
        assertThat(BrokerSettings.standard().brokerProperties()).doesNotContainKey("max.incremental.fetch.session.cache.slots");
    }

    @Test
    void refusesReplicationFactorsThatNoSideCanStart() {
        assertThatThrownBy(() -> new BrokerSettings(1024, 2)).hasMessageContaining("not 2");
    }
}
