package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Spans of the Langfuse SDKs, which are built on OpenTelemetry: {@code langfuse.observation.type} names the
 * observation, and its input and output are one attribute each, JSON-serialized unless they are strings. Names and
 * shapes as the Python SDK v3 writes them ({@code langfuse/_client/attributes.py}; {@code constants.py}, whose
 * observation types go beyond generation, span and event; {@code langfuse/langchain/CallbackHandler.py}) and as the
 * JS SDK's {@code @langfuse/tracing} writes them from v4 on ({@code attributes.ts}, read in a 5.x copy): the same
 * names.
 *
 * <ul>
 *   <li>{@code generation}: a chat or completion call. Its input is the messages (a list, or {@code {messages, tools}}
 *       when tools were offered) or the prompt; its output the assistant's message or the completion text; its usage
 *       {@code usage_details}.
 *   <li>{@code retriever}: the input is the query, the output the documents (LangChain's {@code Document}s).
 *   <li>{@code embedding}: the input is the texts, the output the vectors where the application recorded them.
 *   <li>{@code span}, {@code event}, {@code chain}, {@code agent}, {@code tool}, {@code evaluator},
 *       {@code guardrail}: the application's glue and side work, not claimed; the stage observations under them
 *       carry everything a run needs.
 * </ul>
 *
 * <p>Langfuse's JS LangChain handler records a retriever as a plain {@code span}; it is not read, as nothing but the
 * shape of its output would say that it retrieved.
 */
public final class LangfuseSpanAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    public static final String OBSERVATION_TYPE = "langfuse.observation.type";

    private static final String INPUT = "langfuse.observation.input";
    private static final String OUTPUT = "langfuse.observation.output";
    private static final String MODEL = "langfuse.observation.model.name";
    private static final String USAGE = "langfuse.observation.usage_details";
    /** When the first token came: the SDK's integrations record it for a streamed call only. */
    private static final String COMPLETION_START = "langfuse.observation.completion_start_time";

    private static final String GENERATION = "generation";
    private static final String RETRIEVER = "retriever";
    private static final String EMBEDDING = "embedding";
    private static final Set<String> STAGE_TYPES = Set.of(GENERATION, RETRIEVER, EMBEDDING);

    @Override
    public String name() {
        return "langfuse";
    }

    @Override
    public boolean accepts(CallEvent call) {
        return OtlpAdapters.isSdkStageSpan(call, LangfuseSpanAdapter::typeOf, STAGE_TYPES);
    }

    private static String typeOf(JsonNode attributes) {
        JsonNode type = attributes.get(OBSERVATION_TYPE);
        return type != null && type.isTextual() ? type.textValue().strip().toLowerCase(Locale.ROOT) : null;
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        SpanCall span = SpanCall.of(call);
        String type = typeOf(call.request().body());
        if (GENERATION.equals(type)) {
            return readGeneration(span);
        }
        if (RETRIEVER.equals(type)) {
            return readRetriever(span);
        }
        return readEmbedding(span);
    }

    private static CallDetail readGeneration(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        List<ChatMessage> messages = messages(a.json(INPUT));
        String output = answer(a);
        if (messages.isEmpty() && output == null && !span.failed()) {
            throw new AdapterException("generation records no input or output (not captured, or masked by the SDK)");
        }
        return ChatDetails.of("langfuse.generation", a.string(MODEL), messages, output, usage(a),
                a.has(COMPLETION_START));
    }

    private static List<ChatMessage> messages(JsonNode input) {
        if (input == null) {
            return List.of();
        }
        if (input.isTextual()) {
            return List.of(new ChatMessage("user", input.textValue()));
        }
        return SerializedMessages.of(input.isObject() ? input.get("messages") : input);
    }

    /**
     * The completion's text. An output recorded as a string that parses to no message (a structured answer, JSON
     * written by a completions API) is the answer as written.
     */
    private static String answer(AttributeMap a) throws AdapterException {
        JsonNode output = a.json(OUTPUT);
        String text = SerializedMessages.completionText(output);
        return text == null && output != null && output.isContainerNode() ? a.string(OUTPUT) : text;
    }

    /**
     * Langfuse's usage: {@code input} and {@code output}, less the parts that LangChain's handler splits off under
     * {@code input_*} / {@code output_*} (cached, audio, reasoning tokens), which are added back; or OpenAI's usage,
     * passed through as it came. Usage is informational: a garbled copy must not lose the call.
     */
    private static TokenUsage usage(AttributeMap a) {
        JsonNode usage;
        try {
            usage = a.json(USAGE);
        } catch (AdapterException e) {
            return TokenUsage.UNKNOWN;
        }
        if (usage == null || !usage.isObject()) {
            return TokenUsage.UNKNOWN;
        }
        if (!usage.has("input") && !usage.has("output")) {
            return SerializedMessages.usage(usage);
        }
        return new TokenUsage(withParts(usage, "input"), withParts(usage, "output"));
    }

    private static Integer withParts(JsonNode usage, String side) {
        Integer count = AttributeMap.integer(usage.get(side));
        if (count == null) {
            return null;
        }
        int total = count;
        for (Iterator<Map.Entry<String, JsonNode>> fields = usage.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            Integer part = field.getKey().startsWith(side + "_") ? AttributeMap.integer(field.getValue()) : null;
            total += part == null ? 0 : part;
        }
        return total;
    }

    private static CallDetail readRetriever(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        // Langfuse records no store, collection or top-k for a retriever: the framework hides the vector store.
        return new RetrieveDetail("langfuse.retriever", null, null, query(a), null, null,
                SerializedDocuments.passages(a.json(OUTPUT), OUTPUT));
    }

    /**
     * The query: the input as written when it is a string (one that merely starts with a bracket is still the query),
     * else the query among the arguments recorded.
     */
    private static String query(AttributeMap a) {
        try {
            return SerializedDocuments.query(a.json(INPUT));
        } catch (AdapterException e) {
            return a.string(INPUT);
        }
    }

    private static CallDetail readEmbedding(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        return SerializedEmbeddings.detail("langfuse.embedding", a.string(MODEL), a.json(INPUT), a.json(OUTPUT), OUTPUT,
                usage(a).inputTokens());
    }
}
