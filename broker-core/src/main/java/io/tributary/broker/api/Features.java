package io.tributary.broker.api;

import java.util.List;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKey;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKeyCollection;
import org.apache.kafka.common.message.ApiVersionsResponseData.SupportedFeatureKey;
import org.apache.kafka.common.message.ApiVersionsResponseData.SupportedFeatureKeyCollection;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The feature flags (KIP-584) ApiVersions advertises: each of Kafka 4.4's features whose meaning does not depend on
 * KRaft, supported up to the level this broker implements, finalized at that level. Level 0 means "off"; as in Kafka,
 * a feature at level 0 is listed as supported but not as finalized. A level that rests on an API follows
 * {@link SupportedApis}, so a feature can never promise what the dispatcher refuses.
 *
 * <ul>
 *   <li>{@code metadata.version} and {@code kraft.version} are not advertised: they version the KRaft metadata log
 *       and quorum, which this broker (metadata in ZooKeeper) does not have; Kafka in ZooKeeper mode did not
 *       advertise them either, and no client needs them.</li>
 *   <li>{@code transaction.version} 2 once EndTxn v5 is supported (KIP-890 part 2: producers move to a new epoch with
 *       every transaction and leave adding their partitions to the partition leaders); level 1 is the flexible format
 *       of {@code __transaction_state} records, which we write. A producer that does not know level 2 (librdkafka,
 *       kafkajs, older Java clients) keeps speaking level 0, and is answered as before.</li>
 *   <li>{@code group.version} 1 once ConsumerGroupHeartbeat is supported (KIP-848), else 0.</li>
 *   <li>{@code share.version} and {@code streams.version} follow their heartbeat APIs (KIP-932, KIP-1071).</li>
 *   <li>{@code eligible.leader.replicas.version} 0: leaders are elected from the ISR only (no KIP-966 ELR).</li>
 * </ul>
 */
public final class Features {
    /** One feature: the highest level this broker supports is also the level it runs at. */
    public record Feature(String name, short level) {
        Feature(String name, boolean enabled) {
            this(name, (short) (enabled ? 1 : 0));
        }
    }

    private static final List<Feature> ALL = List.of(
            new Feature("transaction.version", (short) (SupportedApis.range(ApiKeys.END_TXN)
                    .filter(range -> range.max() >= 5).isPresent() ? 2 : 0)),
            new Feature("group.version", SupportedApis.range(ApiKeys.CONSUMER_GROUP_HEARTBEAT).isPresent()),
            new Feature("share.version", SupportedApis.range(ApiKeys.SHARE_GROUP_HEARTBEAT).isPresent()),
            new Feature("streams.version", SupportedApis.range(ApiKeys.STREAMS_GROUP_HEARTBEAT).isPresent()),
            new Feature("eligible.leader.replicas.version", (short) 0));

    private Features() {
    }

    public static List<Feature> all() {
        return ALL;
    }

    /** Each feature from level 0 up to the level it runs at. */
    static SupportedFeatureKeyCollection supported() {
        SupportedFeatureKeyCollection supported = new SupportedFeatureKeyCollection();
        ALL.forEach(feature -> supported.add(new SupportedFeatureKey().setName(feature.name())
                .setMinVersion((short) 0).setMaxVersion(feature.level())));
        return supported;
    }

    /** The features that are on (level 1 or more). */
    static FinalizedFeatureKeyCollection finalized() {
        FinalizedFeatureKeyCollection finalized = new FinalizedFeatureKeyCollection();
        ALL.stream().filter(feature -> feature.level() > 0).forEach(feature -> finalized.add(new FinalizedFeatureKey()
                .setName(feature.name()).setMinVersionLevel(feature.level()).setMaxVersionLevel(feature.level())));
        return finalized;
    }

    /**
     * The epoch of the finalized levels. They are fixed per release and only ever rise from one release to the next,
     * so their sum orders the releases: a client talking to brokers of two versions during an upgrade keeps the
     * newer set, as it keeps the highest epoch. Never -1, which would tell clients no features are finalized.
     */
    static long finalizedEpoch() {
        return ALL.stream().mapToLong(Feature::level).sum();
    }
}
