package io.tributary.broker.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The data of a node under {@code /config} (a topic's overrides, a broker's or a group's dynamic configs), as Kafka
 * writes them: {@code {"version":1,"config":{"key":"value",...}}}.
 */
final class ConfigNode {
    private ConfigNode() {
    }

    static byte[] bytes(Map<String, String> configs) {
        ObjectNode node = Json.object();
        node.put("version", 1);
        ObjectNode config = node.putObject("config");
        configs.forEach(config::put);
        return Json.bytes(node);
    }

    /** The configs of the node at {@code path} (named in the error if its data is not such a node). */
    static Map<String, String> parse(byte[] data, String path) {
        Map<String, String> configs = new LinkedHashMap<>();
        Json.parse(data, path).path("config").fields()
                .forEachRemaining(field -> configs.put(field.getKey(), field.getValue().asText()));
        return configs;
    }
}
