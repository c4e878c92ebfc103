package io.tributary.broker.api;

import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;

/**
 * One config key as DescribeConfigs and CreateTopics report it.
 *
 * @param synonyms every place the value could come from that holds one, in precedence order: the value itself
 *                 first (a topic's override, then the server.properties keys that set its default, then the
 *                 default), as DescribeConfigs' include_synonyms asks
 */
record ConfigEntryView(String name, String value, ConfigSource source, ConfigDef.ConfigKey key, List<Synonym> synonyms) {

    /** A key that gives this config a value, where that value comes from. */
    record Synonym(String name, String value, ConfigSource source) {
    }
}
