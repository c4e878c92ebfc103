package io.tributary.broker.api;

import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The broker settings the APIs act on, so this package needs nothing from the server wiring.
 *
 * @param brokerDef   schema of every broker key (for DescribeConfigs)
 * @param brokerProps the broker's properties as given (server.properties plus overrides)
 */
public record ApiSettings(boolean autoCreateTopics, int defaultPartitions, short defaultReplicationFactor,
                          boolean deleteTopicEnable, ConfigDef brokerDef, Map<String, ?> brokerProps) {
}
