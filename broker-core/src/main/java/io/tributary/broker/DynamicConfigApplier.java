package io.tributary.broker;

import java.util.HashMap;
import java.util.Map;
import io.tributary.broker.cluster.DynamicBrokerConfig;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.replica.ReplicaManager;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the dynamic broker configs in force (over server.properties) to the running broker: the replication
 * throttles' rates (between brokers and between log dirs), and the broker defaults of topic configs, which every log
 * without an override of its own takes at once. A value that does not parse (written past the API) leaves the setting
 * as it was.
 */
final class DynamicConfigApplier {
    private static final Logger log = LoggerFactory.getLogger(DynamicConfigApplier.class);

    private final BrokerConfig config;
    private final TopicManager topics;
    private final ReplicaManager replicas;

    DynamicConfigApplier(BrokerConfig config, TopicManager topics, ReplicaManager replicas) {
        this.config = config;
        this.topics = topics;
        this.replicas = replicas;
    }

    synchronized void apply(DynamicBrokerConfig dynamic) {
        Map<String, Object> merged = new HashMap<>(config.originals());
        merged.putAll(dynamic.effective());
        try {
            BrokerConfig effective = new BrokerConfig(merged);
            replicas.leaderThrottle().setRate(effective.leaderReplicationThrottledRate());
            replicas.followerThrottle().setRate(effective.followerReplicationThrottledRate());
            replicas.alterLogDirsThrottle().setRate(effective.replicaAlterLogDirsIoMaxBytesPerSecond());
            LogConfig defaults = LogConfig.fromBroker(merged);
            if (!defaults.equals(topics.brokerDefaults())) {
                topics.updateBrokerDefaults(defaults);
            }
        } catch (ConfigException e) {
            log.warn("ignoring invalid dynamic broker configs {}: {}", dynamic.effective(), e.getMessage());
        }
    }
}
