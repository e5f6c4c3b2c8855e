package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.util.List;

/** JSON tree shortcuts for the vendor shapes; insertion order is kept, so bodies read like the vendors' own. */
public final class Nodes {

    public static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Nodes() {}

    public static ObjectNode object() {
        return F.objectNode();
    }

    public static ArrayNode array() {
        return F.arrayNode();
    }

    public static ArrayNode strings(List<String> values) {
        ArrayNode out = F.arrayNode();
        values.forEach(out::add);
        return out;
    }

    /** Floats as JSON numbers: Jackson writes the shortest text that reads back to the same float32. */
    public static ArrayNode floats(float[] vector) {
        ArrayNode out = F.arrayNode(vector.length);
        for (float v : vector) {
            out.add(v);
        }
        return out;
    }

    public static ObjectNode message(String role, String content) {
        return object().put("role", role).put("content", content);
    }

    public static String compact(JsonNode node) {
        return Json.write(node);
    }
}
