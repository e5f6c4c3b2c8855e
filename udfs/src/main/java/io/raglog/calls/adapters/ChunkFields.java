package io.raglog.calls.adapters;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;

/**
 * Values of a streamed chunk read at the parser, each as a tree of the chunk would give it. A token's text is
 * appended or compared in the parser's buffer, without a String for it.
 */
final class ChunkFields {

    private ChunkFields() {}

    /** The current value as a tree: for the rare fields read whole (usage, a whole message). */
    static JsonNode tree(JsonParser p) throws IOException {
        JsonNode node = p.readValueAsTree();
        return node == null ? NullNode.getInstance() : node;
    }

    /** The current value as a tree when it is an object, else null (the value skipped). */
    static JsonNode objectTree(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        return tree(p);
    }

    /** {@code JsonNode.asInt(0)} of the current value. */
    static int asInt(JsonParser p) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
            return p.getIntValue();
        }
        return tree(p).asInt(0);
    }

    /** Appends the current value to {@code to} when it is a string. */
    static void appendText(StringBuilder to, JsonParser p) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            to.append(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        } else {
            p.skipChildren();
        }
    }

    /** The first of {@code names} that the current value is a string equal to, else null. */
    static String oneOf(JsonParser p, String... names) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            p.skipChildren();
            return null;
        }
        char[] text = p.getTextCharacters();
        int offset = p.getTextOffset();
        int length = p.getTextLength();
        for (String name : names) {
            if (sameText(name, text, offset, length)) {
                return name;
            }
        }
        return null;
    }

    private static boolean sameText(String name, char[] text, int offset, int length) {
        if (name.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (name.charAt(i) != text[offset + i]) {
                return false;
            }
        }
        return true;
    }
}
