package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Reads newline-delimited JSON replies (Ollama streams one JSON object per line, the last with {@code done}). */
public final class Ndjson {

    private static final Pattern LINE_BREAK = Pattern.compile("\r?\n");

    private Ndjson() {}

    /**
     * The objects of a reply: one object when the reply was a single JSON document, every line when it was NDJSON
     * text, each element when a proxy recorded the lines as an array.
     *
     * @throws AdapterException when a line is not JSON
     */
    public static List<JsonNode> objects(JsonNode body) throws AdapterException {
        List<JsonNode> out = new ArrayList<>();
        if (body == null || body.isMissingNode() || body.isNull()) {
            return out;
        }
        if (body.isObject()) {
            out.add(body);
            return out;
        }
        if (body.isArray()) {
            body.forEach(out::add);
            return out;
        }
        if (!body.isTextual()) {
            throw new AdapterException("reply is " + Bodies.describe(body) + ", expected JSON lines");
        }
        int n = 0;
        for (String line : LINE_BREAK.split(body.textValue())) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            try {
                out.add(Json.MAPPER.readTree(line));
            } catch (IOException notJson) {
                throw new AdapterException("reply line " + n + " is not JSON: "
                        + (line.length() > 60 ? line.substring(0, 60) + "..." : line));
            }
        }
        return out;
    }
}
