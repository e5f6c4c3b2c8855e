package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.TokenUsage;

/** Token counts under each vendor's field names. */
public final class Usage {

    private Usage() {}

    public static TokenUsage of(JsonNode usage, String inputField, String outputField) throws AdapterException {
        if (usage == null || !usage.isObject()) {
            return TokenUsage.UNKNOWN;
        }
        Integer in = Bodies.integer(usage, inputField);
        Integer out = outputField == null ? null : Bodies.integer(usage, outputField);
        return in == null && out == null ? TokenUsage.UNKNOWN : new TokenUsage(in, out);
    }

    /** OpenAI chat, completions and embeddings; also vLLM, LiteLLM, Ollama's /v1, Jina and Voyage. */
    public static TokenUsage openAi(JsonNode usage) throws AdapterException {
        return of(usage, "prompt_tokens", "completion_tokens");
    }
}
