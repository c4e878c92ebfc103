package io.tributary.broker.api;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The APIs and version ranges this broker implements: exactly what ApiVersions advertises and
 * what the dispatcher accepts. The upper ends are what kafka-clients 4.4 prefers, so no client
 * has to downgrade; Produce 13 and Fetch 13+ address topics by id, which Metadata 10+ provides.
 */
public final class SupportedApis {
    private static final Map<ApiKeys, VersionRange> RANGES;

    static {
        Map<ApiKeys, VersionRange> ranges = new EnumMap<>(ApiKeys.class);
        ranges.put(ApiKeys.PRODUCE, VersionRange.of(3, 13));
        ranges.put(ApiKeys.FETCH, VersionRange.of(4, 18));
        ranges.put(ApiKeys.LIST_OFFSETS, VersionRange.of(1, 11));
        ranges.put(ApiKeys.DELETE_RECORDS, VersionRange.of(0, 2));
        ranges.put(ApiKeys.METADATA, VersionRange.of(4, 13));
        ranges.put(ApiKeys.API_VERSIONS, VersionRange.of(0, 5));
        ranges.put(ApiKeys.CREATE_TOPICS, VersionRange.of(2, 7));
        ranges.put(ApiKeys.DELETE_TOPICS, VersionRange.of(1, 6));
        ranges.put(ApiKeys.INIT_PRODUCER_ID, VersionRange.of(0, 6));
        ranges.put(ApiKeys.OFFSET_FOR_LEADER_EPOCH, VersionRange.of(2, 4));
        ranges.put(ApiKeys.DESCRIBE_CONFIGS, VersionRange.of(1, 4));
        ranges.put(ApiKeys.CREATE_PARTITIONS, VersionRange.of(0, 3));
        ranges.put(ApiKeys.INCREMENTAL_ALTER_CONFIGS, VersionRange.of(0, 1));
        ranges.put(ApiKeys.ALTER_CONFIGS, VersionRange.of(0, 2));
        ranges.put(ApiKeys.LIST_CONFIG_RESOURCES, VersionRange.of(0, 1));
        ranges.put(ApiKeys.DESCRIBE_CLIENT_QUOTAS, VersionRange.of(0, 1));
        ranges.put(ApiKeys.ALTER_CLIENT_QUOTAS, VersionRange.of(0, 1));
        ranges.put(ApiKeys.DESCRIBE_CLUSTER, VersionRange.of(0, 2));
        ranges.put(ApiKeys.FIND_COORDINATOR, VersionRange.of(0, 6));
        ranges.put(ApiKeys.JOIN_GROUP, VersionRange.of(0, 9));
        ranges.put(ApiKeys.SYNC_GROUP, VersionRange.of(0, 5));
        ranges.put(ApiKeys.HEARTBEAT, VersionRange.of(0, 4));
        ranges.put(ApiKeys.LEAVE_GROUP, VersionRange.of(0, 5));
        ranges.put(ApiKeys.OFFSET_COMMIT, VersionRange.of(2, 10));
        ranges.put(ApiKeys.OFFSET_FETCH, VersionRange.of(1, 10));
        ranges.put(ApiKeys.LIST_GROUPS, VersionRange.of(0, 5));
        ranges.put(ApiKeys.DESCRIBE_GROUPS, VersionRange.of(0, 6));
        ranges.put(ApiKeys.DELETE_GROUPS, VersionRange.of(0, 3));
        ranges.put(ApiKeys.OFFSET_DELETE, VersionRange.of(0, 0));
        // KIP-848 consumer groups (group.version 1): v1 has the client pick its member id and adds regex subscriptions.
        ranges.put(ApiKeys.CONSUMER_GROUP_HEARTBEAT, VersionRange.of(0, 1));
        ranges.put(ApiKeys.CONSUMER_GROUP_DESCRIBE, VersionRange.of(0, 1));
        // Transactions up to Kafka's transaction version 2 (see Features): producers of versions 0-1 add partitions with
        // AddPartitionsToTxn v0-3; v4+ is the brokers' batched form (verify-only, or adding for producers of version 2,
        // whose Produce v12+ and TxnOffsetCommit v5+ leave adding to the broker); EndTxn v5 bumps the epoch.
        ranges.put(ApiKeys.ADD_PARTITIONS_TO_TXN, VersionRange.of(0, 5));
        ranges.put(ApiKeys.ADD_OFFSETS_TO_TXN, VersionRange.of(0, 4));
        ranges.put(ApiKeys.END_TXN, VersionRange.of(0, 5));
        ranges.put(ApiKeys.WRITE_TXN_MARKERS, VersionRange.of(1, 1));
        ranges.put(ApiKeys.TXN_OFFSET_COMMIT, VersionRange.of(0, 5));
        ranges.put(ApiKeys.DESCRIBE_PRODUCERS, VersionRange.of(0, 0));
        ranges.put(ApiKeys.DESCRIBE_TRANSACTIONS, VersionRange.of(0, 0));
        ranges.put(ApiKeys.LIST_TRANSACTIONS, VersionRange.of(0, 2));
        // v0 is advertised because librdkafka requires it before it uses v1; a v0 handshake itself is refused.
        ranges.put(ApiKeys.SASL_HANDSHAKE, VersionRange.of(0, 1));
        ranges.put(ApiKeys.SASL_AUTHENTICATE, VersionRange.of(0, 2));
        ranges.put(ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS, VersionRange.of(0, 0));
        ranges.put(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, VersionRange.of(0, 0));
        ranges.put(ApiKeys.CREATE_DELEGATION_TOKEN, VersionRange.of(1, 3));
        ranges.put(ApiKeys.RENEW_DELEGATION_TOKEN, VersionRange.of(1, 2));
        ranges.put(ApiKeys.EXPIRE_DELEGATION_TOKEN, VersionRange.of(1, 2));
        ranges.put(ApiKeys.DESCRIBE_DELEGATION_TOKEN, VersionRange.of(1, 3));
        ranges.put(ApiKeys.DESCRIBE_ACLS, VersionRange.of(1, 3));
        ranges.put(ApiKeys.CREATE_ACLS, VersionRange.of(1, 3));
        ranges.put(ApiKeys.DELETE_ACLS, VersionRange.of(1, 3));
        ranges.put(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, VersionRange.of(0, 1));
        ranges.put(ApiKeys.LIST_PARTITION_REASSIGNMENTS, VersionRange.of(0, 0));
        ranges.put(ApiKeys.ELECT_LEADERS, VersionRange.of(0, 2));
        ranges.put(ApiKeys.DESCRIBE_LOG_DIRS, VersionRange.of(1, 4));
        ranges.put(ApiKeys.ALTER_REPLICA_LOG_DIRS, VersionRange.of(1, 2));
        ranges.put(ApiKeys.DESCRIBE_TOPIC_PARTITIONS, VersionRange.of(0, 0));
        // Client telemetry (GetTelemetrySubscriptions, PushTelemetry) is left out as Kafka leaves it out without a
        // telemetry receiver: clients then turn their telemetry off instead of asking again.
        // Never advertise beyond what the codec in kafka-clients can read and write.
        ranges.replaceAll((key, range) -> range.clampTo(key.oldestVersion(), key.latestVersion(true)));
        RANGES = Collections.unmodifiableMap(ranges);
    }

    private SupportedApis() {
    }

    /** An inclusive version range. */
    public record VersionRange(short min, short max) {
        static VersionRange of(int min, int max) {
            return new VersionRange((short) min, (short) max);
        }

        VersionRange clampTo(short oldest, short latest) {
            return new VersionRange((short) Math.max(min, oldest), (short) Math.min(max, latest));
        }

        public boolean contains(short version) {
            return version >= min && version <= max;
        }
    }

    public static Optional<VersionRange> range(ApiKeys key) {
        return Optional.ofNullable(RANGES.get(key));
    }

    public static boolean isSupported(ApiKeys key, short version) {
        VersionRange range = RANGES.get(key);
        return range != null && range.contains(version);
    }

    /** The ranges in ApiVersions response form. */
    public static ApiVersionCollection asApiVersions() {
        ApiVersionCollection versions = new ApiVersionCollection();
        RANGES.forEach((key, range) -> versions.add(new ApiVersion()
                .setApiKey(key.id).setMinVersion(range.min()).setMaxVersion(range.max())));
        return versions;
    }
}
