package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import java.util.ArrayList;
import java.util.List;

/** Reads a "string or array of strings" embeddings input field, as TEI, Ollama and Cohere send it. */
final class EmbedInputs {

    private EmbedInputs() {}

    static List<String> texts(JsonNode request, String field) throws AdapterException {
        JsonNode input = request.get(field);
        if (input == null || input.isNull()) {
            throw new AdapterException("'" + field + "' is missing");
        }
        List<String> texts = new ArrayList<>();
        if (input.isTextual()) {
            texts.add(input.textValue());
            return texts;
        }
        if (!input.isArray()) {
            throw new AdapterException("'" + field + "' is " + Bodies.describe(input) + ", expected text or texts");
        }
        int i = 0;
        for (JsonNode t : input) {
            if (!t.isTextual()) {
                throw new AdapterException("'" + field + "[" + i + "]' is " + Bodies.describe(t) + ", expected text");
            }
            texts.add(t.textValue());
            i++;
        }
        return texts;
    }

    /** A list of vectors ({@code [[...], [...]]}), checked against the number of texts sent. */
    static List<float[]> vectors(JsonNode arrays, String what, int expected) throws AdapterException {
        if (arrays == null || !arrays.isArray()) {
            throw new AdapterException(what + " is " + Bodies.describe(arrays) + ", expected an array of vectors");
        }
        List<float[]> out = new ArrayList<>(arrays.size());
        int i = 0;
        for (JsonNode v : arrays) {
            out.add(Vectors.decode(v, what + "[" + i + "]"));
            i++;
        }
        if (out.size() != expected) {
            throw new AdapterException(what + " has " + out.size() + " vectors for " + expected + " texts");
        }
        return List.copyOf(out);
    }
}
