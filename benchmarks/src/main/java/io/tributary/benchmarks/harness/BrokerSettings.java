package io.tributary.benchmarks.harness;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The broker-side settings both brokers of a run get, under the same (Apache Kafka) property
 * names, which Tributary's configuration also uses. Durability is the same on both sides:
 * no fsync per message or per interval, the page cache and the OS decide (Kafka's default).
 * At replication factor 3 acks=all needs two replicas in sync ({@code min.insync.replicas=2}),
 * and the offsets and transaction state topics are replicated like the data.
 */
public record BrokerSettings(long segmentBytes, int replicationFactor, Map<String, String> overrides) {
    /** Partitions of {@code __consumer_offsets}: Tributary's default is 50, the testkit's Kafka has 5; both get 5. */
    static final int OFFSETS_TOPIC_PARTITIONS = 5;

    public BrokerSettings {
        if (replicationFactor != 1 && replicationFactor != 3) {
            throw new IllegalArgumentException("the harness runs replication factor 1 or 3, not " + replicationFactor);
        }
        overrides = Map.copyOf(overrides);
    }

    public BrokerSettings(long segmentBytes, int replicationFactor) {
        this(segmentBytes, replicationFactor, Map.of());
    }

    /** These settings with {@code key} set to {@code value} too (a workload that compares a broker with a feature off). */
    public BrokerSettings with(String key, String value) {
        return with(Map.of(key, value));
    }

    /** These settings with every entry of {@code more} set too. */
    public BrokerSettings with(Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(overrides);
        all.putAll(more);
        return new BrokerSettings(segmentBytes, replicationFactor, all);
    }

    /** 128 MiB segments, replication factor 1: one broker per side. */
    public static BrokerSettings standard() {
        return new BrokerSettings(128L * 1024 * 1024, 1);
    }

    /** As {@link #standard()}, at replication factor 3: a three-broker cluster per side. */
    public static BrokerSettings replicated() {
        return new BrokerSettings(128L * 1024 * 1024, 3);
    }

    /** Brokers per side. */
    public int brokers() {
        return replicationFactor;
    }

    /** 1 at RF 1; 2 at RF 3, so that acks=all survives one replica falling behind. */
    public int minInsyncReplicas() {
        return replicationFactor == 1 ? 1 : 2;
    }

    /** Properties passed to every broker of both sides at start-up. */
    public Map<String, String> brokerProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("log.segment.bytes", Long.toString(segmentBytes));
        props.put("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        props.put("log.flush.interval.ms", Long.toString(Long.MAX_VALUE));
        props.put("num.partitions", "1");
        props.put("default.replication.factor", Integer.toString(replicationFactor));
        props.put("min.insync.replicas", Integer.toString(minInsyncReplicas()));
        props.put("auto.create.topics.enable", "false");
        props.put("offsets.topic.replication.factor", Integer.toString(replicationFactor));
        props.put("offsets.topic.num.partitions", Integer.toString(OFFSETS_TOPIC_PARTITIONS));
        // The transactional workload's coordinator: __transaction_state replicated like the data, as small as the offsets topic.
        props.put("transaction.state.log.replication.factor", Integer.toString(replicationFactor));
        props.put("transaction.state.log.min.isr", Integer.toString(minInsyncReplicas()));
        props.put("transaction.state.log.num.partitions", Integer.toString(OFFSETS_TOPIC_PARTITIONS));
        // The group workload times joining too: neither side waits for more members before the first rebalance.
        props.put("group.initial.rebalance.delay.ms", "0");
        props.putAll(overrides);
        return props;
    }
}
