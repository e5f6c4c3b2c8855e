package io.raglog.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Amazon Bedrock's Converse API ({@code POST {base}/model/{modelId}/converse}, base
 * {@code https://bedrock-runtime.{region}.amazonaws.com}): one request shape for every model Bedrock serves. With a
 * Bedrock API key the request carries it as a bearer token; without one it is signed with AWS SigV4
 * ({@link BedrockSigning}), with credentials from the AWS SDK's default chain resolved when the provider is made, so a
 * judge with neither fails at start rather than on every request.
 */
public final class BedrockProvider extends HttpChatProvider {

    /** Null with an API key. */
    private final BedrockSigning signing;

    public BedrockProvider(LlmSettings settings) {
        this(settings, (AwsCredentialsProvider) null);
    }

    /** Signs with {@code credentials} when there is no API key; with the default chain when null. */
    BedrockProvider(LlmSettings settings, AwsCredentialsProvider credentials) {
        this(settings, settings.apiKey() != null ? null
                : BedrockSigning.start(settings, converseUrl(settings), credentials));
    }

    private BedrockProvider(LlmSettings settings, BedrockSigning signing) {
        super(settings);
        this.signing = signing;
    }

    /** Where the settings' model is asked. */
    static String converseUrl(LlmSettings settings) {
        return settings.baseUrl() + "/model/" + pathSegment(settings.model()) + "/converse";
    }

    /**
     * The model id as the AWS SDKs write it into the path: every reserved character escaped, so an inference profile's
     * {@code :} goes as {@code %3A} and an ARN's {@code /} as {@code %2F}.
     */
    private static String pathSegment(String modelId) {
        return URLEncoder.encode(modelId, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A")
                .replace("%7E", "~");
    }

    @Override
    protected String url() {
        return converseUrl(settings);
    }

    @Override
    protected Map<String, String> headers() {
        return settings.apiKey() == null ? Map.of() : Map.of("authorization", "Bearer " + settings.apiKey().reveal());
    }

    @Override
    protected HttpHeaders bodyHeaders(ByteBuf body) {
        return signing == null ? null : signing.sign(body);
    }

    @Override
    protected String redact(String text) {
        String withoutKey = super.redact(text);
        return signing == null ? withoutKey : signing.redact(withoutKey);
    }

    @Override
    protected void writeBody(BodyParts body, ChatRequest request) throws IOException {
        JsonGenerator json = body.json();
        json.writeStartObject();
        json.writeArrayFieldStart("system");
        textBlock(body, request.escapedSystem());
        json.writeEndArray();
        json.writeArrayFieldStart("messages");
        json.writeStartObject();
        json.writeStringField("role", "user");
        json.writeArrayFieldStart("content");
        textBlock(body, request.escapedUser());
        json.writeEndArray();
        json.writeEndObject();
        json.writeEndArray();
        json.writeObjectFieldStart("inferenceConfig");
        json.writeNumberField("maxTokens", request.maxOutputTokens());
        json.writeNumberField("temperature", 0);
        json.writeEndObject();
        json.writeEndObject();
    }

    /** A content block of text, {@code {"text": ...}}. */
    private static void textBlock(BodyParts body, EscapedText text) throws IOException {
        JsonGenerator json = body.json();
        json.writeStartObject();
        json.writeFieldName("text");
        body.text(text);
        json.writeEndObject();
    }

    @Override
    protected ChatReply reply(JsonNode body) {
        StringBuilder text = new StringBuilder();
        for (JsonNode block : body.path("output").path("message").path("content")) {
            JsonNode t = block.get("text");
            if (t != null && t.isTextual()) {
                text.append(t.asText());
            }
        }
        if (text.isEmpty()) {
            // content_filtered, guardrail_intervened... say why the model gave no text
            throw new BadReplyException("no text content block in output.message (stopReason "
                    + body.path("stopReason").asText("none") + ")");
        }
        JsonNode usage = body.get("usage");
        return new ChatReply(text.toString(), tokens(usage, "inputTokens"), tokens(usage, "outputTokens"));
    }

    @Override
    public void close() {
        super.close();
        if (signing != null) {
            signing.close();
        }
    }
}
