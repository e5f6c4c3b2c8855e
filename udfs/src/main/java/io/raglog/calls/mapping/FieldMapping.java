package io.raglog.calls.mapping;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.io.Serializable;
import java.util.Locale;

/**
 * Where one unknown endpoint keeps what a stage's {@link io.raglog.calls.CallDetail} needs: the stage, and paths into
 * the request and response bodies. Proposed once per pipeline + endpoint by an LLM, validated against a real call, then
 * kept in Flink state and applied to every call of that endpoint by {@link MappedAdapter}. Written as JSON (state and
 * logs), versioned by {@code schema}.
 *
 * <p>Paths: an absolute path starts at {@code request} or {@code response} (the body) and continues with
 * {@code .field}, {@code [0]}, {@code [*]} (every element of an array) or {@code ["odd key"]}, e.g.
 * {@code response.hits[*]}; a relative path (the per-item fields of a list: {@code result_text}, ...) starts at one
 * element of that list, e.g. {@code doc.body}, and {@code .} is the element itself. JSON pointers
 * ({@code /response/hits/*}) are read too. See {@link BodyPath}.
 *
 * <p>Exactly the section named by {@code stage} is set; {@code not_a_run_call} has none and says why in
 * {@code reason}.
 */
public record FieldMapping(String schema, Kind stage, Chat chat, Embed embed, Retrieve retrieve, Rerank rerank,
        String reason) implements Serializable {

    public static final String SCHEMA = "raglog.field-mapping/v1";

    public FieldMapping {
        schema = schema == null ? SCHEMA : schema;
    }

    /** What the endpoint does, named as {@code CallDetail}'s kinds are. */
    public enum Kind {
        /** A rewriter or a generator: which one is told per call from the prompt, as for every chat API. */
        CHAT,
        EMBED,
        RETRIEVE,
        RERANK,
        /** Health checks, index writes, admin: recognised, counted, never a stage. */
        NOT_A_RUN_CALL;

        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Kind of(String id) {
            for (Kind k : values()) {
                if (k.id().equals(id)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown stage '" + id + "'");
        }
    }

    /**
     * A chat-shaped call. The prompt is read from {@code messages} (with the role and content of each element), else
     * {@code prompt} (one user message, after an optional {@code system} text), else from the {@code question} and
     * its {@code context} passages when the endpoint is a wrapper that builds the prompt itself (an in-house
     * {@code /answer} service).
     *
     * @param contextText relative to each context element; absent: the element itself, or its text field
     */
    public record Chat(String messages, String messageRole, String messageContent, String system, String prompt,
            String question, String context, String contextText, String output, String model, String inputTokens,
            String outputTokens) implements Serializable {}

    /**
     * @param texts the texts sent: a string, strings, or a path with {@code [*]}
     * @param vectors one vector per text: arrays of numbers, or base64 float32 strings
     */
    public record Embed(String texts, String vectors, String model, String inputTokens) implements Serializable {}

    /** Either query field may be absent, not both; the per-result fields are relative to one element of results. */
    public record Retrieve(String queryText, String queryVector, String topK, String results, String resultId,
            String resultText, String resultScore) implements Serializable {}

    /**
     * @param documentText relative to each document; absent: the document itself, or its text field
     * @param resultIndex relative to each result: the position of the document in {@code documents}
     */
    public record Rerank(String query, String documents, String documentText, String topN, String results,
            String resultIndex, String resultScore, String model) implements Serializable {}

    public static FieldMapping chat(Chat chat) {
        return new FieldMapping(SCHEMA, Kind.CHAT, chat, null, null, null, null);
    }

    public static FieldMapping embed(Embed embed) {
        return new FieldMapping(SCHEMA, Kind.EMBED, null, embed, null, null, null);
    }

    public static FieldMapping retrieve(Retrieve retrieve) {
        return new FieldMapping(SCHEMA, Kind.RETRIEVE, null, null, retrieve, null, null);
    }

    public static FieldMapping rerank(Rerank rerank) {
        return new FieldMapping(SCHEMA, Kind.RERANK, null, null, null, rerank, null);
    }

    public static FieldMapping notARunCall(String reason) {
        return new FieldMapping(SCHEMA, Kind.NOT_A_RUN_CALL, null, null, null, null, reason);
    }
}
