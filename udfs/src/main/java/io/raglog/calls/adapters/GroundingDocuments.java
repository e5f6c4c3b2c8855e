package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.ChatMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Passages an API hands its model beside the messages rather than in them (Claude's and Converse's document blocks,
 * Cohere's {@code documents}, the Responses API's file-search results), written into the prompt raglog reads as
 * {@code <document>} elements: where the prompt rules find a generator's passages, as they would had the client
 * written them into the message itself. A managed RAG that answers in one call (Bedrock's retrieveAndGenerate, Vertex
 * AI Search's answer, Gemini grounded on a corpus) names them one at a time, in citations or stream events: they are
 * {@link Gathered} first.
 */
final class GroundingDocuments {

    private GroundingDocuments() {}

    /** One passage as an element, its title (a file name, a document's name) kept as the element's. */
    static String element(String title, String text) {
        return "<document" + (title == null || title.isEmpty() ? "" : " title=\"" + title + "\"") + ">\n" + text
                + "\n</document>";
    }

    /** The {@code text} of an array's parts, one a line (a document's or a search result's content blocks). */
    static String textParts(JsonNode parts) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : parts) {
            if (part.path("text").isTextual()) {
                sb.append(sb.length() > 0 ? "\n" : "").append(part.get("text").textValue());
            }
        }
        return sb.toString();
    }

    /** The elements put before the last user message's text (the question follows its passages), or as one. */
    static void intoLastUserMessage(List<ChatMessage> messages, String elements) {
        if (elements.isEmpty()) {
            return;
        }
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                messages.set(i, new ChatMessage("user", elements + "\n" + messages.get(i).content()));
                return;
            }
        }
        messages.add(new ChatMessage("user", elements));
    }

    /**
     * Passages met one at a time (a reply's citations, a stream's events), each kept once, as a passage two sentences
     * cite is one passage, with the title it first came with; written before the question as elements.
     */
    static final class Gathered {

        private final Map<String, String> titleByText = new LinkedHashMap<>();

        /** A passage, its text stripped; an absent or blank text is none, and a title may be null. */
        void add(String title, String text) {
            if (text != null && !text.isBlank()) {
                titleByText.putIfAbsent(text.strip(), title);
            }
        }

        /** The passages as elements, one a line, in the order first met, before the last user message's text. */
        void intoLastUserMessage(List<ChatMessage> messages) {
            StringBuilder elements = new StringBuilder();
            titleByText.forEach((text, title) -> elements.append(elements.length() > 0 ? "\n" : "")
                    .append(element(title, text)));
            GroundingDocuments.intoLastUserMessage(messages, elements.toString());
        }
    }
}
