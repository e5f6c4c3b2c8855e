package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.calls.adapters.IndexBuilding;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Spans instrumented with the OpenInference semantic conventions (Arize Phoenix; the LlamaIndex, LangChain, DSPy,
 * OpenAI ... instrumentors): {@code openinference.span.kind} names the operation, lists are flattened into indexed
 * keys ({@code llm.input_messages.0.message.role}).
 */
public final class OpenInferenceAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    public static final String SPAN_KIND = "openinference.span.kind";

    /**
     * The kinds that are calls of a RAG stage. CHAIN, AGENT and PROMPT are the framework's glue around them, TOOL,
     * GUARDRAIL and EVALUATOR side work: the stage spans under them carry everything a run needs.
     */
    static final Set<String> STAGE_KINDS = Set.of("LLM", "EMBEDDING", "RETRIEVER", "RERANKER");

    @Override
    public String name() {
        return "openinference";
    }

    @Override
    public boolean accepts(CallEvent call) {
        if (!SpanCall.isSpanCall(call)) {
            return false;
        }
        String kind = kindOf(call.request().body());
        return kind != null && STAGE_KINDS.contains(kind);
    }

    private static String kindOf(JsonNode attributes) {
        JsonNode kind = attributes.get(SPAN_KIND);
        return kind != null && kind.isTextual() ? kind.textValue().strip().toUpperCase(Locale.ROOT) : null;
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        SpanCall span = SpanCall.of(call);
        String kind = kindOf(call.request().body());
        if ("LLM".equals(kind)) {
            return readLlm(span);
        }
        if ("EMBEDDING".equals(kind)) {
            return readEmbedding(span);
        }
        if ("RETRIEVER".equals(kind)) {
            return readRetriever(span);
        }
        return readReranker(span);
    }

    private static CallDetail readLlm(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        String model = a.firstString("llm.model_name", "llm.response.model_name", "llm.request.model_name");
        List<ChatMessage> messages = messages(a.list("llm.input_messages"));
        if (messages.isEmpty()) {
            // Completions APIs record prompts, not messages.
            for (AttributeMap prompt : a.list("llm.prompts")) {
                String text = prompt.string("prompt.text");
                if (text != null) {
                    messages.add(new ChatMessage("user", text));
                }
            }
        }
        if (messages.isEmpty() && a.string("input.value") != null) {
            messages.add(new ChatMessage("user", a.string("input.value")));
        }
        String output = outputOf(a);
        if (messages.isEmpty() && output == null && !span.failed()) {
            throw new AdapterException("LLM span records no input messages, prompts or input.value"
                    + " (inputs hidden by the instrumentation's privacy settings?)");
        }
        TokenUsage usage = new TokenUsage(a.integer("llm.token_count.prompt"), a.integer("llm.token_count.completion"));
        return ChatDetails.of("openinference.llm", model, messages, output, usage, streamed(a));
    }

    private static List<ChatMessage> messages(List<AttributeMap> items) {
        List<ChatMessage> messages = new ArrayList<>(items.size());
        for (AttributeMap item : items) {
            String role = item.lowerString("message.role");
            messages.add(new ChatMessage(role == null ? "unknown" : role, messageText(item)));
        }
        return messages;
    }

    /**
     * {@code message.content}, or the text parts of {@code message.contents} joined (multi-part messages); for a
     * message that calls tools, what it asked of them: {@code message.tool_calls}' arguments, a line per call (an
     * agent's search, read as a proxy's recorded reply is).
     */
    private static String messageText(AttributeMap message) {
        String calls = GenAiMessages.toolCallArguments(message.list("message.tool_calls"),
                "tool_call.function.arguments");
        if (calls != null) {
            return calls;
        }
        String content = message.string("message.content");
        if (content != null) {
            return content;
        }
        StringBuilder text = new StringBuilder();
        for (AttributeMap part : message.list("message.contents")) {
            String type = part.lowerString("message_content.type");
            String partText = part.string("message_content.text");
            if (partText != null && (type == null || "text".equals(type))) {
                if (text.length() > 0) {
                    text.append('\n');
                }
                text.append(partText);
            }
        }
        return text.length() == 0 ? null : text.toString();
    }

    private static String outputOf(AttributeMap a) {
        List<AttributeMap> outputs = a.list("llm.output_messages");
        if (!outputs.isEmpty()) {
            return messageText(outputs.get(0));
        }
        List<AttributeMap> choices = a.list("llm.choices");
        if (!choices.isEmpty()) {
            return choices.get(0).string("completion.text");
        }
        return a.string("output.value");
    }

    /** OpenInference has no streaming attribute; the invocation parameters say whether the call asked for a stream. */
    private static boolean streamed(AttributeMap a) {
        try {
            JsonNode parameters = a.json("llm.invocation_parameters");
            JsonNode stream = parameters == null ? null : parameters.get("stream");
            return stream != null && stream.asBoolean(false);
        } catch (AdapterException e) {
            return false; // the parameters are informational; a garbled copy must not lose the call
        }
    }

    private static CallDetail readEmbedding(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        List<AttributeMap> embeddings = a.list("embedding.embeddings");
        List<String> texts = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < embeddings.size(); i++) {
            AttributeMap embedding = embeddings.get(i);
            String text = embedding.string("embedding.text");
            if (text != null) {
                texts.add(text);
            }
            float[] vector = Vectors.of(embedding.json("embedding.vector"), "embedding.embeddings." + i + ".embedding.vector");
            if (vector != null) {
                vectors.add(vector);
            }
        }
        if (texts.isEmpty() && a.string("input.value") != null) {
            texts.add(a.string("input.value"));
        }
        // Vectors are matched to texts by position: keep them only when every embedding recorded one.
        if (vectors.size() != embeddings.size()) {
            vectors.clear();
        }
        if (texts.isEmpty() && vectors.isEmpty() && !span.failed()) {
            throw new AdapterException("EMBEDDING span records neither embedding texts nor vectors");
        }
        // Index building traced through the same instrumentor (a batch of document chunks) is not a run's stage.
        String indexing = IndexBuilding.reasonForTexts(texts);
        if (indexing != null) {
            return new NotARunCall("openinference.embedding", indexing);
        }
        TokenUsage usage = new TokenUsage(a.integer("llm.token_count.prompt"), null);
        return new EmbedDetail("openinference.embedding", a.string("embedding.model_name"), List.copyOf(texts),
                List.copyOf(vectors), usage);
    }

    private static CallDetail readRetriever(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        List<AttributeMap> documents = a.list("retrieval.documents");
        List<Passage> passages = new ArrayList<>(documents.size());
        for (AttributeMap document : documents) {
            String text = document.string("document.content");
            passages.add(new Passage(PassageIds.idOr(document.string("document.id"), text), text,
                    document.decimal("document.score"), passages.size() + 1));
        }
        // OpenInference records no store name or top-k for a retriever: the framework hides the vector store.
        return new RetrieveDetail("openinference.retriever", null, null, queryText(a), null, null,
                List.copyOf(passages));
    }

    /**
     * The retriever's query is its {@code input.value}; with {@code input.mime_type: application/json} some
     * frameworks record a JSON object around it ({@code {"query_str": ...}}).
     */
    private static String queryText(AttributeMap a) throws AdapterException {
        String input = a.string("input.value");
        if (input == null || !"application/json".equals(a.lowerString("input.mime_type"))) {
            return input;
        }
        JsonNode parsed = a.json("input.value");
        if (parsed != null && parsed.isObject()) {
            for (String field : List.of("query_str", "query", "input", "question")) {
                String text = AttributeMap.text(parsed.get(field));
                if (text != null) {
                    return text;
                }
            }
        }
        return parsed != null && parsed.isTextual() ? parsed.textValue() : input;
    }

    private static CallDetail readReranker(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        List<AttributeMap> inputs = a.list("reranker.input_documents");
        List<AttributeMap> outputs = a.list("reranker.output_documents");
        if (inputs.isEmpty() && !outputs.isEmpty()) {
            throw new AdapterException("RERANKER span records output documents but no input documents");
        }
        List<String> documents = new ArrayList<>(inputs.size());
        for (AttributeMap input : inputs) {
            String text = input.string("document.content");
            documents.add(text == null ? "" : text);
        }
        int[] indexes = RerankMatch.inputIndexes(rerankDocuments(inputs), rerankDocuments(outputs));
        List<RerankDetail.RerankResult> results = new ArrayList<>(outputs.size());
        for (int i = 0; i < outputs.size(); i++) {
            AttributeMap output = outputs.get(i);
            if (indexes[i] < 0) {
                throw new AdapterException("reranker.output_documents." + i + " (id " + output.string("document.id")
                        + ") matches no input document by id or content");
            }
            Double score = output.decimal("document.score");
            // A reranker that reports no score still reports an order; NaN says "no score", never a made-up one.
            results.add(new RerankDetail.RerankResult(indexes[i], score == null ? Double.NaN : score));
        }
        String query = a.firstString("reranker.query", "input.value");
        return new RerankDetail("openinference.reranker", a.string("reranker.model_name"), query,
                List.copyOf(documents), List.copyOf(results), a.integer("reranker.top_k"));
    }

    private static List<RerankMatch.Document> rerankDocuments(List<AttributeMap> documents) {
        List<RerankMatch.Document> list = new ArrayList<>(documents.size());
        for (AttributeMap document : documents) {
            list.add(new RerankMatch.Document(document.string("document.id"), document.string("document.content")));
        }
        return list;
    }
}
