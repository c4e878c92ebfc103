package io.tributary.benchmarks.harness;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The broker-side settings both brokers of a run get, under the same (Apache Kafka) property
 * names, which Tributary's configuration also uses. Durability is the same on both sides:
 * no fsync per message or per interval, the page cache and the OS decide (Kafka's default).
 */
public record BrokerSettings(long segmentBytes, int replicationFactor) {

    /** 128 MiB segments, replication factor 1. */
    public static BrokerSettings standard() {
        return new BrokerSettings(128L * 1024 * 1024, 1);
    }

    /** Properties passed to both brokers at start-up. */
    public Map<String, String> brokerProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("log.segment.bytes", Long.toString(segmentBytes));
        props.put("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        props.put("log.flush.interval.ms", Long.toString(Long.MAX_VALUE));
        props.put("num.partitions", "1");
        props.put("default.replication.factor", Integer.toString(replicationFactor));
        props.put("auto.create.topics.enable", "false");
        return props;
    }
}
