package io.tributary.broker.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON of the ZooKeeper nodes. */
public final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws IllegalStateException if the node does not hold JSON (someone else wrote it) */
    public static JsonNode parse(byte[] data, String path) {
        try {
            return MAPPER.readTree(data);
        } catch (IOException e) {
            throw new IllegalStateException("ZooKeeper node " + path + " does not hold valid JSON", e);
        }
    }
}
