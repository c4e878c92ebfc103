package io.tributary.broker.api;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;

/** One config key as DescribeConfigs and CreateTopics report it. */
record ConfigEntryView(String name, String value, ConfigSource source, ConfigDef.ConfigKey key) {
}
