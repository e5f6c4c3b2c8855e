package io.raglog.calls.mapping;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.llm.ChatRequest;
import io.raglog.llm.Prompts;
import io.raglog.schemas.CallEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The versioned field-mapping prompt: its instructions in the system message, the sampled call in the user message,
 * fenced exactly as the LLM checks fence a run ({@link Prompts#fence}), so a body that says "ignore the above" is a
 * JSON string value between two marker lines it cannot forge.
 */
final class MappingPrompt {

    static final String PROMPT_ID = "field-mapping.v1";

    /** Past this a rejection reason is cut: it is shown to the model again and must not carry a body with it. */
    static final int MAX_REASON_CHARS = 300;

    private final String system;
    private final int maxOutputTokens;

    MappingPrompt(int maxOutputTokens) {
        this.system = load();
        this.maxOutputTokens = maxOutputTokens;
    }

    private static String load() {
        String file = "/prompts/" + PROMPT_ID + ".txt";
        try (InputStream in = MappingPrompt.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("prompt file " + file + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String system() {
        return system;
    }

    /**
     * @param previousRejection why this endpoint's last proposal was refused, or null: the model gets to correct it
     * @throws IllegalArgumentException when the call cannot be shown within {@code sampleMaxChars}
     */
    ChatRequest request(EndpointKey key, CallEvent sample, String previousRejection, int sampleMaxChars) {
        ObjectNode data = CallSample.of(key, sample, sampleMaxChars);
        if (previousRejection != null) {
            data.put("previous_rejection", cut(previousRejection));
        }
        return new ChatRequest(PROMPT_ID, system, Prompts.fence(key + "/" + PROMPT_ID, data), maxOutputTokens);
    }

    static String cut(String text) {
        String oneLine = text.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MAX_REASON_CHARS ? oneLine : oneLine.substring(0, MAX_REASON_CHARS) + "...";
    }
}
