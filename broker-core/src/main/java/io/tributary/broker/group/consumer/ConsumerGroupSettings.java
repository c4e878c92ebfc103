package io.tributary.broker.group.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.assignor.RangeAssignor;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;

/**
 * Kafka's {@code group.consumer.*} broker settings; a group's own configs (GROUP config resources) may set its session
 * timeout and heartbeat interval.
 *
 * @param sessionTimeoutMs    a member that does not heartbeat for this long is fenced
 * @param heartbeatIntervalMs how often members are told to heartbeat
 * @param assignors           the server-side assignors members may name; the first is the default
 * @param migrationPolicy     which non-empty groups change protocol ({@code group.consumer.migration.policy}): a classic
 *                            group when a consumer-protocol member joins (upgrade), a consumer group whose last
 *                            consumer-protocol member leaves (downgrade)
 * @param maxSize             most members a consumer group may have ({@code group.consumer.max.size}), classic ones
 *                            included
 */
public record ConsumerGroupSettings(int sessionTimeoutMs, int heartbeatIntervalMs, List<ConsumerGroupPartitionAssignor> assignors,
                                    ConsumerGroupMigrationPolicy migrationPolicy, int maxSize) {
    public ConsumerGroupSettings {
        if (assignors.isEmpty()) {
            throw new ConfigException("group.consumer.assignors must name at least one assignor");
        }
        if (heartbeatIntervalMs >= sessionTimeoutMs) {
            throw new ConfigException("group.consumer.heartbeat.interval.ms must be smaller than group.consumer.session.timeout.ms");
        }
        assignors = List.copyOf(assignors);
    }

    /**
     * The assignors of {@code group.consumer.assignors}: {@code uniform}, {@code range}, or class names of
     * {@link ConsumerGroupPartitionAssignor} implementations, as in Kafka.
     */
    public static List<ConsumerGroupPartitionAssignor> assignors(List<String> names) {
        List<ConsumerGroupPartitionAssignor> assignors = new ArrayList<>();
        for (String name : names) {
            assignors.add(switch (name.trim()) {
                case UniformAssignor.NAME -> new UniformAssignor();
                case RangeAssignor.NAME -> new RangeAssignor();
                default -> instantiate(name.trim());
            });
        }
        return assignors;
    }

    private static ConsumerGroupPartitionAssignor instantiate(String className) {
        try {
            Object assignor = Class.forName(className).getDeclaredConstructor().newInstance();
            if (assignor instanceof ConsumerGroupPartitionAssignor partitionAssignor) {
                return partitionAssignor;
            }
            throw new ConfigException("group.consumer.assignors: " + className + " is not a ConsumerGroupPartitionAssignor");
        } catch (ReflectiveOperationException e) {
            throw new ConfigException("group.consumer.assignors: unknown assignor " + className);
        }
    }

    /** The session timeout of a group with {@code groupConfigs}: its own {@code consumer.session.timeout.ms}, else ours. */
    public int sessionTimeoutMs(Map<String, String> groupConfigs) {
        return own(groupConfigs, GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG, sessionTimeoutMs);
    }

    /** The heartbeat interval of a group with {@code groupConfigs}: its own {@code consumer.heartbeat.interval.ms}, else ours. */
    public int heartbeatIntervalMs(Map<String, String> groupConfigs) {
        return own(groupConfigs, GroupConfig.CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG, heartbeatIntervalMs);
    }

    /** A group config was validated when it was set (GroupConfigHandler), so it parses. */
    private static int own(Map<String, String> groupConfigs, String key, int broker) {
        String value = groupConfigs.get(key);
        return value == null ? broker : Integer.parseInt(value.trim());
    }

    public Optional<ConsumerGroupPartitionAssignor> assignor(String name) {
        return assignors.stream().filter(a -> a.name().equals(name)).findFirst();
    }

    public ConsumerGroupPartitionAssignor defaultAssignor() {
        return assignors.get(0);
    }
}
