package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Spans instrumented with the OpenTelemetry GenAI semantic conventions ({@code gen_ai.*}): chat and completion calls,
 * embeddings, retrievals ({@code gen_ai.operation.name = retrieval}), and vector-store queries traced as
 * {@code db.*} spans. The operation comes from {@code gen_ai.operation.name}, or from OpenLLMetry's
 * {@code llm.request.type} on spans that predate it.
 *
 * <p>The conventions have no reranker operation: rerank calls traced this way are not read (OpenInference's RERANKER
 * spans are).
 */
public final class GenAiSpanAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    public static final String OPERATION = "gen_ai.operation.name";

    private static final Set<String> CHAT_OPERATIONS = Set.of("chat", "text_completion", "generate_content");
    private static final String EMBEDDINGS = "embeddings";
    private static final String RETRIEVAL = "retrieval";
    private static final String VECTOR_QUERY = "vector_query";
    /** OpenLLMetry's {@code llm.request.type} values, as the operation they name. */
    private static final Map<String, String> LLM_REQUEST_TYPES =
            Map.of("chat", "chat", "completion", "text_completion", "embedding", EMBEDDINGS);

    @Override
    public String name() {
        return "otel.gen_ai";
    }

    @Override
    public boolean accepts(CallEvent call) {
        if (!SpanCall.isSpanCall(call)) {
            return false;
        }
        // Most spans of a trace carry none of these; only those that do are worth reading further.
        JsonNode attributes = call.request().body();
        if (!attributes.has(OPERATION) && !attributes.has("llm.request.type") && !attributes.has("db.system")
                && !attributes.has("db.system.name")) {
            return false;
        }
        return operationOf(SpanCall.of(call)) != null;
    }

    /** The stage operation the span records, null for anything else (agents, tools, memory, workflows). */
    private static String operationOf(SpanCall span) {
        AttributeMap a = span.attributes();
        String operation = a.lowerString(OPERATION);
        if (operation == null) {
            String requestType = a.lowerString("llm.request.type");
            operation = requestType == null ? null : LLM_REQUEST_TYPES.get(requestType);
        }
        if (operation != null && (CHAT_OPERATIONS.contains(operation) || EMBEDDINGS.equals(operation)
                || RETRIEVAL.equals(operation))) {
            return operation;
        }
        return VectorDbQuery.isQuery(span) ? VECTOR_QUERY : null;
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        SpanCall span = SpanCall.of(call);
        String operation = operationOf(span);
        if (EMBEDDINGS.equals(operation)) {
            return readEmbeddings(span);
        }
        if (RETRIEVAL.equals(operation)) {
            return readRetrieval(span);
        }
        if (VECTOR_QUERY.equals(operation)) {
            return VectorDbQuery.read(span);
        }
        return readChat(span, operation);
    }

    private static CallDetail readChat(SpanCall span, String operation) throws AdapterException {
        AttributeMap a = span.attributes();
        List<ChatMessage> messages = GenAiMessages.input(span);
        String output = GenAiMessages.output(span);
        if (messages.isEmpty() && output == null && !span.failed()) {
            throw new AdapterException("gen_ai " + operation + " span records no prompt or completion: message"
                    + " capture is opt-in (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)");
        }
        // The model that answered, which may differ from the one asked for (routing, dated snapshots).
        String model = a.firstString("gen_ai.response.model", "gen_ai.request.model");
        boolean streamed = Boolean.TRUE.equals(a.bool("gen_ai.request.stream"))
                || Boolean.TRUE.equals(a.bool("llm.is_streaming"));
        return ChatDetails.of("gen_ai." + operation, model, messages, output, usageOf(a), streamed);
    }

    private static TokenUsage usageOf(AttributeMap a) {
        return new TokenUsage(a.firstInteger("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"),
                a.firstInteger("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"));
    }

    /**
     * The conventions record no embedding inputs or vectors; OpenLLMetry records the inputs as
     * {@code gen_ai.prompt.N.content}. Without them the call still marks the embed stage, its model and latency.
     */
    private static CallDetail readEmbeddings(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        List<String> texts = new ArrayList<>();
        for (AttributeMap prompt : a.list("gen_ai.prompt")) {
            String text = GenAiMessages.indexedPromptText(prompt);
            if (text != null) {
                texts.add(text);
            }
        }
        if (texts.isEmpty()) {
            for (ChatMessage message : GenAiMessages.input(span)) {
                if (message.content() != null) {
                    texts.add(message.content());
                }
            }
        }
        TokenUsage usage = new TokenUsage(a.firstInteger("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"),
                null);
        return new EmbedDetail("gen_ai.embeddings", a.firstString("gen_ai.response.model", "gen_ai.request.model"),
                List.copyOf(texts), List.of(), usage);
    }

    private static CallDetail readRetrieval(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        JsonNode documents = a.json("gen_ai.retrieval.documents");
        if (documents != null && !documents.isArray()) {
            throw new AdapterException("gen_ai.retrieval.documents is not a list of documents");
        }
        List<Passage> passages = new ArrayList<>();
        if (documents != null) {
            for (JsonNode document : documents) {
                String text = AttributeMap.text(document.get("content"));
                if (text == null) {
                    text = AttributeMap.text(document.get("text"));
                }
                passages.add(new Passage(PassageIds.idOr(AttributeMap.text(document.get("id")), text), text,
                        AttributeMap.decimal(document.get("score")), passages.size() + 1));
            }
        }
        String store = a.firstString("gen_ai.provider.name", "gen_ai.system", "db.system.name", "db.system");
        return new RetrieveDetail("gen_ai.retrieval", store, a.string("gen_ai.data_source.id"),
                a.firstString("gen_ai.retrieval.query.text", "gen_ai.retrieval.query"), null,
                a.firstInteger("gen_ai.retrieval.top_k", "gen_ai.request.top_k"), List.copyOf(passages));
    }
}
