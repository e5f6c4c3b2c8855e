package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;

/** Embedding vectors as spans carry them: a double-array attribute, or (some SDKs) a JSON string of one. */
final class Vectors {

    private Vectors() {}

    /**
     * @param value an array node, already parsed from a JSON string if the span recorded one; null when absent
     * @return the vector, or null when absent
     * @throws AdapterException when it is present but not a list of numbers
     */
    static float[] of(JsonNode value, String what) throws AdapterException {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isArray()) {
            throw new AdapterException(what + " is not a list of numbers");
        }
        float[] vector = new float[value.size()];
        for (int i = 0; i < vector.length; i++) {
            JsonNode element = value.get(i);
            if (!element.isNumber()) {
                throw new AdapterException(what + "[" + i + "] is not a number: " + element);
            }
            vector[i] = element.floatValue();
        }
        return vector;
    }
}
