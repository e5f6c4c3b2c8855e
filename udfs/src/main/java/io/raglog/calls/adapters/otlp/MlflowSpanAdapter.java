package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Spans of MLflow Tracing, which it exports over OTLP when {@code OTEL_EXPORTER_OTLP_ENDPOINT} is set:
 * {@code mlflow.spanType} names the operation, {@code mlflow.spanInputs} and {@code mlflow.spanOutputs} hold the
 * call's arguments and result whole, and every value is JSON-encoded, strings included
 * ({@link AttributeMap#jsonEncoded}). Names and shapes as MLflow 3.x writes them ({@code SpanAttributeKey} in
 * {@code mlflow/tracing/constant.py}, {@code mlflow/entities/span.py}, the LangChain, LlamaIndex and OpenAI
 * autologging), and the {@code mlflow.chat.messages} of the 2.x releases.
 *
 * <ul>
 *   <li>{@code CHAT_MODEL}, {@code LLM}: a chat or completion call. The inputs hold the messages (LangChain's, in
 *       batches; OpenAI's or LlamaIndex's {@code messages} argument) or the prompts, the outputs the completion
 *       (OpenAI's response, LangChain's {@code LLMResult}, LlamaIndex's response); token counts come from
 *       {@code mlflow.chat.tokenUsage}, else from the provider's usage in the outputs.
 *   <li>{@code RETRIEVER}: the inputs are the query, the outputs the documents ({@code {page_content, metadata, id}}).
 *   <li>{@code EMBEDDING}: the inputs hold the texts, the outputs the vectors.
 *   <li>{@code RERANKER}: the inputs hold the query and the documents, the outputs the documents kept, best first.
 *   <li>{@code CHAIN}, {@code AGENT}, {@code TOOL}, {@code PARSER}, {@code MEMORY}, {@code UNKNOWN} and custom
 *       types: the application's glue and side work, not claimed.
 * </ul>
 */
public final class MlflowSpanAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    public static final String SPAN_TYPE = "mlflow.spanType";

    private static final String INPUTS = "mlflow.spanInputs";
    private static final String OUTPUTS = "mlflow.spanOutputs";
    /** MLflow 2.x: the input messages in OpenAI's shape, the answer appended once the call returned. */
    private static final String CHAT_MESSAGES = "mlflow.chat.messages";
    private static final String TOKEN_USAGE = "mlflow.chat.tokenUsage";
    private static final String MODEL = "mlflow.llm.model";

    private static final Set<String> CHAT_TYPES = Set.of("CHAT_MODEL", "LLM");
    private static final String RETRIEVER = "RETRIEVER";
    private static final String EMBEDDING = "EMBEDDING";
    private static final String RERANKER = "RERANKER";
    private static final Set<String> STAGE_TYPES = Set.of("CHAT_MODEL", "LLM", RETRIEVER, EMBEDDING, RERANKER);

    @Override
    public String name() {
        return "mlflow";
    }

    @Override
    public boolean accepts(CallEvent call) {
        return OtlpAdapters.isSdkStageSpan(call, MlflowSpanAdapter::typeOf, STAGE_TYPES);
    }

    /** The span type without the quotes MLflow's encoding puts around it: cheap enough for {@link #accepts}. */
    private static String typeOf(JsonNode attributes) {
        JsonNode value = attributes.get(SPAN_TYPE);
        if (value == null || !value.isTextual()) {
            return null;
        }
        String type = value.textValue().strip();
        if (type.length() >= 2 && type.startsWith("\"") && type.endsWith("\"")) {
            type = type.substring(1, type.length() - 1);
        }
        return type.toUpperCase(Locale.ROOT);
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        SpanCall span = SpanCall.of(call);
        String type = typeOf(call.request().body());
        AttributeMap a = span.attributes();
        JsonNode inputs = decoded(a, INPUTS);
        JsonNode outputs = decoded(a, OUTPUTS);
        if (CHAT_TYPES.contains(type)) {
            return readChat(span, type.toLowerCase(Locale.ROOT), inputs, outputs);
        }
        if (RETRIEVER.equals(type)) {
            // MLflow records no store, collection or top-k for a retriever: the framework hides the vector store.
            return new RetrieveDetail("mlflow.retriever", null, null, SerializedDocuments.query(inputs), null, null,
                    SerializedDocuments.passages(outputs, OUTPUTS));
        }
        if (EMBEDDING.equals(type)) {
            return readEmbedding(a, inputs, outputs);
        }
        return readReranker(a, inputs, outputs);
    }

    private static CallDetail readChat(SpanCall span, String type, JsonNode inputs, JsonNode outputs)
            throws AdapterException {
        AttributeMap a = span.attributes();
        List<ChatMessage> messages = messages(inputs);
        String output = SerializedMessages.completionText(outputs);
        if (messages.isEmpty()) {
            messages = SerializedMessages.of(a.jsonEncoded(CHAT_MESSAGES));
            if (!messages.isEmpty() && "assistant".equals(messages.get(messages.size() - 1).role())) {
                ChatMessage answer = messages.remove(messages.size() - 1);
                output = output != null ? output : answer.content();
            }
        }
        if (messages.isEmpty() && output == null && !span.failed()) {
            throw new AdapterException(type.toUpperCase(Locale.ROOT) + " span records no messages, prompt or"
                    + " completion in " + INPUTS + ", " + OUTPUTS + " or " + CHAT_MESSAGES);
        }
        JsonNode invocation = decoded(a, "invocation_params"); // LangChain's call arguments, kept as attributes
        String model = firstText(outputs.at("/model"), outputs.at("/llm_output/model_name"), a.jsonEncoded(MODEL),
                inputs.at("/model"), invocation.at("/model_name"), invocation.at("/model"),
                a.jsonEncoded("model_name"));
        boolean streamed = inputs.at("/stream").asBoolean(false) || invocation.at("/stream").asBoolean(false);
        return ChatDetails.of("mlflow." + type, model, messages, output, usage(a, outputs), streamed);
    }

    /** The messages among the inputs: all of them, the {@code messages} or prompts among the arguments, or a prompt. */
    private static List<ChatMessage> messages(JsonNode inputs) {
        if (inputs.isTextual()) {
            return new ArrayList<>(List.of(new ChatMessage("user", inputs.textValue())));
        }
        if (inputs.isObject()) {
            for (String argument : List.of("messages", "prompts", "prompt", "input")) {
                JsonNode value = inputs.get(argument);
                if (value != null && (value.isArray() || value.isTextual())) {
                    return messages(value);
                }
            }
        }
        return SerializedMessages.of(inputs);
    }

    /** {@code mlflow.chat.tokenUsage} where MLflow set it, else the provider's usage: OpenAI's, LangChain's. */
    private static TokenUsage usage(AttributeMap a, JsonNode outputs) throws AdapterException {
        for (JsonNode usage : List.of(decoded(a, TOKEN_USAGE), outputs.at("/usage"),
                outputs.at("/llm_output/token_usage"))) {
            TokenUsage counts = SerializedMessages.usage(usage);
            if (counts.inputTokens() != null || counts.outputTokens() != null) {
                return counts;
            }
        }
        return TokenUsage.UNKNOWN;
    }

    private static CallDetail readEmbedding(AttributeMap a, JsonNode inputs, JsonNode outputs)
            throws AdapterException {
        String model = firstText(a.jsonEncoded(MODEL), inputs.at("/model"), a.jsonEncoded("model_name"),
                outputs.at("/model"));
        return SerializedEmbeddings.detail("mlflow.embedding", model, inputs, outputs, OUTPUTS,
                usage(a, outputs).inputTokens());
    }

    private static CallDetail readReranker(AttributeMap a, JsonNode inputs, JsonNode outputs)
            throws AdapterException {
        List<JsonNode> inputDocuments = SerializedDocuments.list(firstPresent(inputs, "documents", "nodes"),
                INPUTS + " documents");
        List<JsonNode> outputDocuments = SerializedDocuments.list(outputs, OUTPUTS);
        if (inputDocuments.isEmpty() && !outputDocuments.isEmpty()) {
            throw new AdapterException("RERANKER span records output documents but no input documents");
        }
        List<String> documents = new ArrayList<>(inputDocuments.size());
        for (JsonNode document : inputDocuments) {
            String text = SerializedDocuments.text(document);
            documents.add(text == null ? "" : text);
        }
        int[] indexes = RerankMatch.inputIndexes(rerankDocuments(inputDocuments), rerankDocuments(outputDocuments));
        List<RerankDetail.RerankResult> results = new ArrayList<>(outputDocuments.size());
        for (int i = 0; i < outputDocuments.size(); i++) {
            if (indexes[i] < 0) {
                throw new AdapterException(OUTPUTS + "[" + i + "] (id " + SerializedDocuments.id(outputDocuments.get(i))
                        + ") matches no input document by id or text");
            }
            Double score = SerializedDocuments.score(outputDocuments.get(i));
            // A reranker that reports no score still reports an order; NaN says "no score", never a made-up one.
            results.add(new RerankDetail.RerankResult(indexes[i], score == null ? Double.NaN : score));
        }
        String model = firstText(a.jsonEncoded("model_name"), a.jsonEncoded(MODEL), inputs.at("/model"));
        Integer topN = AttributeMap.integer(firstOf(a.jsonEncoded("top_n"), inputs.at("/top_n"), inputs.at("/top_k")));
        return new RerankDetail("mlflow.reranker", model, SerializedDocuments.query(inputs), List.copyOf(documents),
                List.copyOf(results), topN);
    }

    /** The attribute decoded, a missing node when absent: inputs and outputs are looked into by path. */
    private static JsonNode decoded(AttributeMap a, String key) throws AdapterException {
        JsonNode value = a.jsonEncoded(key);
        return value == null ? MissingNode.getInstance() : value;
    }

    private static List<RerankMatch.Document> rerankDocuments(List<JsonNode> documents) {
        List<RerankMatch.Document> list = new ArrayList<>(documents.size());
        for (JsonNode document : documents) {
            list.add(new RerankMatch.Document(SerializedDocuments.id(document), SerializedDocuments.text(document)));
        }
        return list;
    }

    private static JsonNode firstPresent(JsonNode object, String... fields) {
        for (String field : fields) {
            JsonNode value = object.get(field);
            if (value != null && !value.isNull()) {
                return value;
            }
        }
        return null;
    }

    private static JsonNode firstOf(JsonNode... values) {
        for (JsonNode value : values) {
            if (value != null && !value.isNull() && !value.isMissingNode()) {
                return value;
            }
        }
        return null;
    }

    private static String firstText(JsonNode... values) {
        for (JsonNode value : values) {
            String text = AttributeMap.text(value);
            if (text != null && !text.isBlank()) {
                return text;
            }
        }
        return null;
    }
}
