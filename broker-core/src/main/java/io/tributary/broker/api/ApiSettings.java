package io.tributary.broker.api;

import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The broker settings the APIs act on, so this package needs nothing from the server wiring.
 *
 * @param brokerDef   schema of every broker key (for DescribeConfigs)
 * @param brokerProps the broker's properties as given (server.properties plus overrides)
 * @param transactionPartitionVerification whether a produce of transaction version 0 or 1 that opens a transaction on
 *                    a partition is first verified with the coordinator (transaction.partition.verification.enable)
 */
public record ApiSettings(boolean autoCreateTopics, int defaultPartitions, short defaultReplicationFactor,
                          boolean deleteTopicEnable, ConfigDef brokerDef, Map<String, ?> brokerProps,
                          boolean transactionPartitionVerification) {
}
