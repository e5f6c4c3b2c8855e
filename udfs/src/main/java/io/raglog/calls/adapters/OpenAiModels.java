package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.CallEvent;

/**
 * The model an OpenAI-compatible request names: the body's {@code model}, else Azure's deployment in the path, else the
 * model a Vertex AI {@code :rawPredict} path names.
 */
final class OpenAiModels {

    private OpenAiModels() {}

    static String requested(CallEvent call, JsonNode request) {
        String model = Bodies.label(request, "model");
        if (model != null) {
            return model;
        }
        Endpoint e = Endpoint.of(call);
        return e.isRawPredict() ? e.modelBeforeMethod() : e.segmentAfter("deployments");
    }
}
