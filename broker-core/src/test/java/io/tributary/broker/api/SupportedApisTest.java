package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

class SupportedApisTest {
    @Test
    void coversWhatTheClientsNeed() {
        Map<ApiKeys, Integer> lowestNeeded = Map.of(ApiKeys.PRODUCE, 3, ApiKeys.FETCH, 4, ApiKeys.LIST_OFFSETS, 1,
                ApiKeys.METADATA, 4, ApiKeys.CREATE_TOPICS, 2, ApiKeys.DELETE_TOPICS, 1, ApiKeys.INIT_PRODUCER_ID, 0,
                ApiKeys.DESCRIBE_CONFIGS, 1);
        lowestNeeded.forEach((key, version) -> assertThat(SupportedApis.isSupported(key, version.shortValue())).as(key.name).isTrue());
        // librdkafka and kafkajs
        assertThat(SupportedApis.isSupported(ApiKeys.PRODUCE, (short) 7)).isTrue();
        assertThat(SupportedApis.isSupported(ApiKeys.FETCH, (short) 11)).isTrue();
    }

    @Test
    void topicIdsInProduceComeWithTopicIdsInMetadata() {
        if (SupportedApis.range(ApiKeys.PRODUCE).orElseThrow().max() >= 13) {
            assertThat(SupportedApis.range(ApiKeys.METADATA).orElseThrow().max()).isGreaterThanOrEqualTo((short) 10);
        }
    }

    @Test
    void reachesWhatKafkaClientsPrefersSoNobodyDowngrades() {
        for (ApiKeys key : new ApiKeys[] {ApiKeys.PRODUCE, ApiKeys.FETCH, ApiKeys.LIST_OFFSETS, ApiKeys.METADATA,
                ApiKeys.API_VERSIONS, ApiKeys.CREATE_TOPICS, ApiKeys.DELETE_TOPICS, ApiKeys.INIT_PRODUCER_ID, ApiKeys.DESCRIBE_CONFIGS,
                ApiKeys.CREATE_PARTITIONS, ApiKeys.INCREMENTAL_ALTER_CONFIGS, ApiKeys.DESCRIBE_CLUSTER}) {
            assertThat(SupportedApis.range(key).orElseThrow().max()).as(key.name).isEqualTo(key.latestVersion());
        }
    }

    @Test
    void advertisesExactlyItsRangesWithinWhatTheCodecKnows() {
        for (ApiVersion version : SupportedApis.asApiVersions()) {
            ApiKeys key = ApiKeys.forId(version.apiKey());
            assertThat(SupportedApis.range(key).orElseThrow())
                    .isEqualTo(new SupportedApis.VersionRange(version.minVersion(), version.maxVersion()));
            assertThat(version.minVersion()).isGreaterThanOrEqualTo(key.oldestVersion());
            assertThat(version.maxVersion()).isLessThanOrEqualTo(key.latestVersion(true));
        }
        assertThat(SupportedApis.isSupported(ApiKeys.GET_TELEMETRY_SUBSCRIPTIONS, (short) 0)).isFalse();
    }
}
