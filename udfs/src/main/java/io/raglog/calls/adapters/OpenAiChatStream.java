package io.raglog.calls.adapters;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.TokenUsage;
import java.io.IOException;

/**
 * What an OpenAI-style chat stream's {@code chat.completion.chunk}s add up to, read as they are parsed: the first
 * choice's content, else its tool calls' arguments; the first model named; the last usage. A tree per chunk for
 * these few fields took 6.7 KB of the 42.6 KB decoding a call allocated (JMH). A field given twice in an object
 * counts with its last value, as in a tree: what an earlier one appended is taken back.
 */
final class OpenAiChatStream implements Sse.ChunkReader {

    private final StringBuilder content = new StringBuilder();
    private final StringBuilder toolArgs = new StringBuilder();
    private TokenUsage usage = TokenUsage.UNKNOWN;
    private String model;
    private JsonNode context;

    /** The content, or the tool calls' arguments when the reply was only tool calls. */
    String output() {
        return content.length() > 0 ? content.toString() : toolArgs.toString();
    }

    TokenUsage usage() {
        return usage;
    }

    /** The first choice's {@code context} (Azure OpenAI with {@code data_sources}), or null. */
    JsonNode context() {
        return context;
    }

    /** The model the first chunk naming one named, or null. */
    String model() {
        return model;
    }

    @Override
    public void read(JsonParser chunk, String event) throws IOException, AdapterException {
        if (chunk.currentToken() != JsonToken.START_OBJECT) {
            chunk.skipChildren();
            return;
        }
        int contentMark = content.length();
        int argsMark = toolArgs.length();
        String chunkModel = null;
        JsonNode choicesNotArray = null;
        JsonNode chunkUsage = null;
        while (chunk.nextToken() == JsonToken.FIELD_NAME) {
            String field = chunk.currentName();
            JsonToken value = chunk.nextToken();
            if ("model".equals(field)) {
                chunkModel = model == null && value == JsonToken.VALUE_STRING ? chunk.getText() : null;
            } else if ("choices".equals(field)) {
                content.setLength(contentMark);
                toolArgs.setLength(argsMark);
                choicesNotArray = null;
                if (value == JsonToken.START_ARRAY) {
                    readChoices(chunk);
                } else if (value != JsonToken.VALUE_NULL) {
                    choicesNotArray = ChunkFields.tree(chunk);
                }
            } else if ("usage".equals(field)) {
                chunkUsage = ChunkFields.objectTree(chunk);
            } else {
                chunk.skipChildren();
            }
        }
        if (model == null) {
            model = chunkModel;
        }
        if (choicesNotArray != null) {
            Bodies.asArray(choicesNotArray, "choices"); // refused with the words a whole chunk's reading used
        }
        if (chunkUsage != null) {
            usage = Usage.openAi(chunkUsage);
        }
    }

    private void readChoices(JsonParser p) throws IOException {
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() == JsonToken.START_OBJECT) {
                readChoice(p);
            } else {
                p.skipChildren();
            }
        }
    }

    private void readChoice(JsonParser p) throws IOException {
        int contentMark = content.length();
        int argsMark = toolArgs.length();
        int index = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if ("index".equals(field)) {
                index = ChunkFields.asInt(p);
            } else if ("delta".equals(field)) {
                content.setLength(contentMark);
                toolArgs.setLength(argsMark);
                if (value == JsonToken.START_OBJECT) {
                    readDelta(p);
                } else {
                    p.skipChildren();
                }
            } else {
                p.skipChildren();
            }
        }
        if (index != 0) {
            // n > 1: the first choice is the one a pipeline uses
            content.setLength(contentMark);
            toolArgs.setLength(argsMark);
        }
    }

    private void readDelta(JsonParser p) throws IOException {
        int contentMark = content.length();
        int argsMark = toolArgs.length();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if ("content".equals(field)) {
                content.setLength(contentMark);
                ChunkFields.appendText(content, p);
            } else if ("tool_calls".equals(field)) {
                toolArgs.setLength(argsMark);
                readToolCalls(p, value);
            } else if ("context".equals(field) && value == JsonToken.START_OBJECT && context == null) {
                context = ChunkFields.tree(p); // Azure OpenAI "on your data": the retrieved documents, first chunk
            } else {
                p.skipChildren();
            }
        }
    }

    /** The calls of an array, or the values of an object (a tree iterates both alike). */
    private void readToolCalls(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY && value != JsonToken.START_OBJECT) {
            return;
        }
        JsonToken end = value == JsonToken.START_ARRAY ? JsonToken.END_ARRAY : JsonToken.END_OBJECT;
        while (p.nextToken() != end) {
            if (value == JsonToken.START_OBJECT) {
                p.nextToken(); // past the member's name to its value
            }
            if (p.currentToken() == JsonToken.START_OBJECT) {
                readToolCall(p);
            } else {
                p.skipChildren();
            }
        }
    }

    private void readToolCall(JsonParser p) throws IOException {
        int argsMark = toolArgs.length();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if ("function".equals(field)) {
                toolArgs.setLength(argsMark);
            }
            if ("function".equals(field) && value == JsonToken.START_OBJECT) {
                readFunction(p);
            } else {
                p.skipChildren();
            }
        }
    }

    private void readFunction(JsonParser p) throws IOException {
        int argsMark = toolArgs.length();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if ("arguments".equals(field)) {
                toolArgs.setLength(argsMark);
                ChunkFields.appendText(toolArgs, p);
            } else {
                p.skipChildren();
            }
        }
    }
}
