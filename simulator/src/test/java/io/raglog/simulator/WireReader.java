package io.raglog.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import io.raglog.simulator.wire.Vectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Reads back what the tests need from the vendor shapes, independently of the code that wrote them. */
final class WireReader {

    private WireReader() {}

    /** The generator's answer: streamed OpenAI/vLLM or Anthropic text, or a Responses API output. */
    static String answer(JsonNode call) {
        JsonNode body = call.get("response").get("body");
        if (body.isTextual()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode event : sseData(body.asText())) {
                if (event.has("choices") && event.get("choices").size() > 0) {
                    JsonNode content = event.get("choices").get(0).get("delta").get("content");
                    if (content != null && !content.isNull()) {
                        sb.append(content.asText());
                    }
                } else if ("content_block_delta".equals(event.path("type").asText())) {
                    sb.append(event.get("delta").get("text").asText());
                }
            }
            return sb.toString();
        }
        if (body.has("output")) {
            return body.get("output").get(0).get("content").get(0).get("text").asText();
        }
        if (body.has("choices")) {
            return body.get("choices").get(0).get("message").get("content").asText();
        }
        return body.get("message").get("content").asText();
    }

    /** The last user turn of a chat-shaped request: where the generator prompt carries context and question. */
    static String userPrompt(JsonNode call) {
        JsonNode body = call.get("request").get("body");
        JsonNode turns = body.has("messages") ? body.get("messages") : body.get("input");
        if (turns.isTextual()) {
            return turns.asText();
        }
        String last = null;
        for (JsonNode m : turns) {
            if ("user".equals(m.get("role").asText())) {
                last = m.get("content").asText();
            }
        }
        return last;
    }

    static List<JsonNode> sseData(String stream) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : stream.split("\n")) {
            if (line.startsWith("data: ") && !line.equals("data: [DONE]")) {
                try {
                    out.add(Json.MAPPER.readTree(line.substring(6)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return out;
    }

    static float[] floats(JsonNode array) {
        float[] out = new float[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) array.get(i).asDouble();
        }
        return out;
    }

    /** An embeddings reply's first vector, whether base64 float32 or a float array. */
    static float[] openAiEmbedding(JsonNode call) {
        JsonNode embedding = call.get("response").get("body").get("data").get(0).get("embedding");
        return embedding.isTextual() ? Vectors.fromBase64(embedding.asText()) : floats(embedding);
    }
}
