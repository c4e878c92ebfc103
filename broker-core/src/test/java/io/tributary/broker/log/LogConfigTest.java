package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogConfigTest {

    @Test
    void defaultsAreKafkas() {
        LogConfig config = LogConfig.defaults();
        assertThat(config.segmentBytes()).isEqualTo(1 << 30);
        assertThat(config.segmentMs()).isEqualTo(7L * 24 * 3600 * 1000);
        assertThat(config.indexIntervalBytes()).isEqualTo(4096);
        assertThat(config.segmentIndexBytes()).isEqualTo(10 * 1024 * 1024);
        assertThat(config.flushMessages()).isEqualTo(Long.MAX_VALUE);
        assertThat(config.flushMs()).isEqualTo(Long.MAX_VALUE);
        assertThat(config.retentionMs()).isEqualTo(168L * 3600 * 1000);
        assertThat(config.retentionBytes()).isEqualTo(-1);
        assertThat(config.maxMessageBytes()).isEqualTo(1048588);
        assertThat(config.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        assertThat(config.deleteRetentionEnabled()).isTrue();
        assertThat(config.retentionCheckIntervalMs()).isEqualTo(300_000);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "log.retention.hours=2|7200000",
            "log.retention.hours=2,log.retention.minutes=3|180000",
            "log.retention.hours=2,log.retention.minutes=3,log.retention.ms=4|4",
            "log.retention.ms=-5|-1",
            "log.retention.hours=-1|-1"})
    void retentionKeysTakePrecedenceFromTheFinestUnit(String props, long expectedMs) {
        Map<String, String> map = new java.util.HashMap<>();
        for (String pair : props.split(",")) {
            String[] kv = pair.split("=");
            map.put(kv[0], kv[1]);
        }
        assertThat(LogConfig.fromBroker(map).retentionMs()).isEqualTo(expectedMs);
    }

    @Test
    void brokerKeysBecomeTheTopicDefaults() {
        LogConfig config = LogConfig.fromBroker(Map.of(
                LogConfig.LOG_DIRS, "/a,/b", LogConfig.LOG_SEGMENT_BYTES, "1000",
                LogConfig.LOG_FLUSH_INTERVAL_MESSAGES, "10", LogConfig.LOG_FLUSH_INTERVAL_MS, "20",
                LogConfig.MESSAGE_MAX_BYTES, "300", LogConfig.LOG_MESSAGE_TIMESTAMP_TYPE, "LogAppendTime",
                "broker.id", "7"));
        assertThat(config.logDirs()).containsExactly(Path.of("/a"), Path.of("/b"));
        assertThat(config.segmentBytes()).isEqualTo(1000);
        assertThat(config.flushMessages()).isEqualTo(10);
        assertThat(config.flushMs()).isEqualTo(20);
        assertThat(config.maxMessageBytes()).isEqualTo(300);
        assertThat(config.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
    }

    @Test
    void topicOverridesReplaceOnlyTheirKeys() {
        LogConfig broker = LogConfig.fromBroker(Map.of(LogConfig.LOG_SEGMENT_BYTES, "1000"));
        LogConfig topic = broker.withTopicOverrides(Map.of(LogConfig.RETENTION_BYTES, "500",
                LogConfig.FLUSH_MESSAGES, "3"));
        assertThat(topic.segmentBytes()).isEqualTo(1000);
        assertThat(topic.retentionBytes()).isEqualTo(500);
        assertThat(topic.flushMessages()).isEqualTo(3);
        assertThat(broker.retentionBytes()).isEqualTo(-1);
    }

    @Test
    void invalidOrUnknownOverridesAreRejected() {
        LogConfig config = LogConfig.defaults();
        assertThatThrownBy(() -> config.withTopicOverrides(Map.of(LogConfig.SEGMENT_BYTES, "10")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("segment.bytes");
        assertThatThrownBy(() -> config.withTopicOverrides(Map.of(LogConfig.RETENTION_MS, "soon")))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> config.withTopicOverrides(Map.of("retention.msec", "1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("Unknown topic config retention.msec");
        assertThatThrownBy(() -> LogConfig.fromBroker(Map.of(LogConfig.LOG_MESSAGE_TIMESTAMP_TYPE, "Whenever")))
                .isInstanceOf(ConfigException.class);
    }

    @Test
    void aTieredTopicFollowsKafkasRules() {
        LogConfig tieredBroker = LogConfig.fromBroker(Map.of(LogConfig.REMOTE_LOG_STORAGE_SYSTEM_ENABLE, "true",
                LogConfig.LOG_RETENTION_MS, "600000"));
        LogConfig tiered = tieredBroker.withTopicOverrides(Map.of(LogConfig.REMOTE_STORAGE_ENABLE, "true",
                LogConfig.LOCAL_RETENTION_BYTES, "1000", LogConfig.RETENTION_BYTES, "5000"));
        assertThat(tiered.remoteStorageEnable()).isTrue();
        assertThat(tiered.localRetentionBytes()).isEqualTo(1000);
        assertThat(tiered.localRetentionMs()).as("-2: the whole log's").isEqualTo(600_000);

        assertThatThrownBy(() -> LogConfig.defaults().withTopicOverrides(Map.of(LogConfig.REMOTE_STORAGE_ENABLE, "true")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("remote.storage.enable")
                .hasMessageContaining("remote.log.storage.system.enable=false");
        assertThatThrownBy(() -> tieredBroker.withTopicOverrides(Map.of(LogConfig.REMOTE_STORAGE_ENABLE, "true",
                LogConfig.CLEANUP_POLICY, "compact"))).isInstanceOf(ConfigException.class).hasMessageContaining("compacted");
        assertThatThrownBy(() -> tieredBroker.withTopicOverrides(Map.of(LogConfig.REMOTE_STORAGE_ENABLE, "true",
                LogConfig.LOCAL_RETENTION_MS, "600001"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("local.retention.ms");
        assertThatThrownBy(() -> tieredBroker.withTopicOverrides(Map.of(LogConfig.REMOTE_STORAGE_ENABLE, "true",
                LogConfig.RETENTION_BYTES, "10", LogConfig.LOCAL_RETENTION_BYTES, "-1"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("local.retention.bytes");
    }

    @Test
    void everyKeyIsDocumented() {
        for (ConfigDef def : List.of(LogConfig.brokerConfigDef(), LogConfig.topicConfigDef())) {
            assertThat(def.configKeys().values()).allSatisfy(key -> assertThat(key.documentation).isNotBlank());
        }
        assertThat(LogConfig.brokerConfigDef().names()).contains("log.dirs", "log.segment.bytes", "log.roll.ms",
                "log.roll.hours", "log.index.interval.bytes", "log.index.size.max.bytes",
                "log.flush.interval.messages", "log.flush.interval.ms", "log.retention.ms", "log.retention.hours",
                "log.retention.bytes", "log.retention.check.interval.ms", "log.flush.scheduler.interval.ms",
                "message.max.bytes", "num.recovery.threads.per.data.dir");
        assertThat(LogConfig.topicConfigDef().names()).contains("segment.bytes", "segment.ms",
                "segment.index.bytes", "index.interval.bytes", "flush.messages", "flush.ms", "retention.ms",
                "retention.bytes", "max.message.bytes", "cleanup.policy", "message.timestamp.type");
    }
}
