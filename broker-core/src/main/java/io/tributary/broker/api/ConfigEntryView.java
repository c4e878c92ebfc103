package io.tributary.broker.api;

import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;

/**
 * One config key as DescribeConfigs and CreateTopics report it.
 *
 * @param synonyms the places the value could come from that hold one, in precedence order, as Kafka lists them for
 *                 DescribeConfigs' include_synonyms: a topic's or a group's own value first, then its broker keys'
 *                 (dynamic, static, default)
 */
record ConfigEntryView(String name, String value, ConfigSource source, ConfigDef.ConfigKey key, List<Synonym> synonyms) {

    /** A key that gives this config a value, where that value comes from. */
    record Synonym(String name, String value, ConfigSource source) {
    }
}
