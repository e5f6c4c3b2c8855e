package io.raglog.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.adapters.Bodies;
import io.raglog.schemas.CallEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The documents an index-building embedding call embedded: what the pipeline's knowledge base holds, seen as it is
 * built rather than only as runs are handed it. Read from the request's texts ({@code input} of OpenAI-compatible,
 * Ollama, Voyage and Jina APIs, as a string, a list of strings or Jina's {@code {"text": ...}} objects; Cohere's
 * {@code texts}, on Bedrock too; Titan's {@code inputText}; TEI's {@code inputs}; Gemini's {@code content.parts}, or
 * each of its {@code requests}' in a batch; Vertex AI's {@code instances[].content}; Pinecone Inference's
 * {@code inputs[].text}). Token-id inputs carry no text and are skipped. A store's write is read too, for the texts
 * its records carry ({@link StoreWrites}): a store that embeds what it is given leaves no embedding call to read.
 *
 * @param at the call's end (event time)
 */
public record IndexedPassages(String pipeline, List<String> texts, Instant at) {

    private static final String[] TEXT_FIELDS = {"input", "texts", "inputs", "inputText"};

    /**
     * The texts of a successful index-building embedding call or store write; null for any other call or one with no
     * text.
     */
    public static IndexedPassages read(ClassifiedCall call) {
        if (!(call.detail() instanceof NotARunCall n) || !n.buildsIndex() || call.event().failed()) {
            return null;
        }
        CallEvent e = call.event();
        JsonNode request = Bodies.request(e);
        List<String> texts = n.embedsDocuments() ? embedded(request) : StoreWrites.texts(request);
        return texts.isEmpty() ? null : new IndexedPassages(e.pipeline(), texts, e.endedAt());
    }

    /** The texts an embedding request sent. */
    private static List<String> embedded(JsonNode request) {
        List<String> texts = new ArrayList<>();
        if (request == null || !request.isObject()) {
            return texts;
        }
        for (String field : TEXT_FIELDS) {
            collect(request.get(field), texts);
            if (!texts.isEmpty()) {
                break;
            }
        }
        if (texts.isEmpty()) {
            for (JsonNode instance : request.path("instances")) {
                if (instance.path("content").isTextual()) {
                    add(instance.get("content").asText(), texts); // Vertex AI's :predict; a title beside it is not
                }
            }
        }
        if (texts.isEmpty()) {
            JsonNode items = request.path("requests").isArray() ? request.get("requests") : null;
            for (JsonNode item : items != null ? items : List.of(request)) {
                for (JsonNode part : item.path("content").path("parts")) {
                    if (part.path("text").isTextual()) {
                        add(part.get("text").asText(), texts); // a content's parts one passage each, as Gemini's
                    }
                }
            }
        }
        return texts;
    }

    private static void collect(JsonNode node, List<String> into) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            add(node.asText(), into);
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                if (item.isTextual()) {
                    add(item.asText(), into);
                } else if (item.isObject() && item.path("text").isTextual()) {
                    add(item.get("text").asText(), into);
                }
            }
        }
    }

    /** A text, unless blank; null counts as blank (a record with no text). */
    static void add(String text, List<String> into) {
        if (text != null && !text.isBlank()) {
            into.add(text);
        }
    }
}
