package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.Locale;

/**
 * Reads captured bodies safely. A body may arrive as a JSON string that holds JSON (some proxies store bodies as
 * text), so every read goes through {@link #json}. Accessors return null for absent fields and throw
 * {@link AdapterException} only for fields that are present with the wrong type, naming the field.
 */
public final class Bodies {

    /** A whole-document reader: NDJSON text starts with "{" too, and must not be read as its first line. */
    private static final ObjectReader WHOLE_DOCUMENT =
            Json.MAPPER.readerFor(JsonNode.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Bodies() {}

    /** The body as JSON: a text node holding a JSON object or array is parsed; anything else is returned as is. */
    public static JsonNode json(JsonNode body) {
        if (body == null || body.isNull()) {
            return MissingNode.getInstance();
        }
        if (body.isTextual() && startsLikeJson(body.textValue())) {
            try {
                return WHOLE_DOCUMENT.readValue(body.textValue().strip());
            } catch (IOException notJson) {
                return body; // NDJSON or a truncated body: callers decide what a text body means for them
            }
        }
        return body;
    }

    /**
     * Whether the text, past the white space {@link String#strip} drops, starts an object or an array. Looked for in
     * place: stripping every text body first copied each event stream whole, as it ends in a blank line, twice a
     * streamed call (2.4 KB of the 36 KB decoding a call allocated, JMH).
     */
    private static boolean startsLikeJson(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i < text.length() && (text.charAt(i) == '{' || text.charAt(i) == '[');
    }

    public static JsonNode request(CallEvent call) {
        return call.request() == null ? MissingNode.getInstance() : json(call.request().body());
    }

    public static JsonNode response(CallEvent call) {
        return call.response() == null ? MissingNode.getInstance() : json(call.response().body());
    }

    /**
     * True when the reply can carry outputs: a 2xx status and a body that is not an error object. A 429 or 5xx is
     * still a call of its stage (the request side is read) but has nothing to read on the response side.
     */
    public static boolean succeeded(CallEvent call) {
        if (call.response() == null || call.response().status() < 200 || call.response().status() >= 300) {
            return false;
        }
        JsonNode body = response(call);
        if (body.isMissingNode()) {
            return false;
        }
        return !(body.isObject() && body.has("error") && !body.get("error").isNull());
    }

    /** The request body as an object, or an exception that says what arrived instead. */
    public static JsonNode requestObject(CallEvent call) throws AdapterException {
        JsonNode body = request(call);
        if (!body.isObject()) {
            throw new AdapterException("request body is " + describe(body) + ", expected a JSON object");
        }
        return body;
    }

    /** The response body as an object or an array; callers only ask once {@link #succeeded} said yes. */
    public static JsonNode responseJson(CallEvent call) throws AdapterException {
        JsonNode body = response(call);
        if (!body.isObject() && !body.isArray()) {
            throw new AdapterException("response body is " + describe(body) + ", expected JSON");
        }
        return body;
    }

    public static String text(JsonNode obj, String field) throws AdapterException {
        JsonNode v = obj == null ? null : obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new AdapterException("'" + field + "' is " + describe(v) + ", expected a string");
        }
        return v.textValue();
    }

    /**
     * The name under which a Google API body holds a field: proto3's JSON mapping lets a client write the proto's name
     * ({@code feature_vector}) or its lowerCamelCase form ({@code featureVector}), and Google's replies use the latter.
     * The camel-case name when the body has it, else the proto's, for the accessors here to read (and name in errors).
     * Inside a free-form struct (a Vertex AI Search document's {@code derivedStructData}) keys are as they were stored.
     */
    public static String protoName(JsonNode obj, String protoName) {
        StringBuilder camel = new StringBuilder(protoName.length());
        for (int i = 0; i < protoName.length(); i++) {
            char c = protoName.charAt(i);
            if (c == '_' && i + 1 < protoName.length()) {
                camel.append(Character.toUpperCase(protoName.charAt(++i)));
            } else {
                camel.append(c);
            }
        }
        return obj != null && obj.has(camel.toString()) ? camel.toString() : protoName;
    }

    /** The field under either name ({@link #protoName}); a missing node under neither, so that paths chain on. */
    public static JsonNode protoField(JsonNode obj, String protoName) {
        return obj == null ? MissingNode.getInstance() : obj.path(protoName(obj, protoName));
    }

    public static String requireText(JsonNode obj, String field) throws AdapterException {
        String v = text(obj, field);
        if (v == null) {
            throw new AdapterException("'" + field + "' is missing");
        }
        return v;
    }

    /**
     * A string nested in objects, a dotted path into the body ({@code query.text}, {@code input.text}): where the
     * question or query of an API that nests it is. Required; the error names the path and what was expected there.
     */
    public static String requireTextAt(JsonNode obj, String path, String expected) throws AdapterException {
        JsonNode v = obj == null ? MissingNode.getInstance() : obj;
        for (String field : path.split("\\.")) {
            v = v.path(field);
        }
        if (!v.isTextual()) {
            throw new AdapterException("'" + path + "' is " + describe(v) + ", expected " + expected);
        }
        return v.textValue();
    }

    /** A string field, or null when absent or not a string: for fields we only use as labels (a model name). */
    public static String label(JsonNode obj, String field) {
        JsonNode v = obj == null ? null : obj.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    public static Integer integer(JsonNode obj, String field) throws AdapterException {
        JsonNode v = obj == null ? null : obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isIntegralNumber() && v.canConvertToInt()) {
            return v.intValue();
        }
        if (v.isTextual() && v.textValue().strip().matches("\\d{1,9}")) {
            return Integer.parseInt(v.textValue().strip());
        }
        throw new AdapterException("'" + field + "' is " + describe(v) + ", expected an integer");
    }

    /** A numeric field, or null when absent; scores are optional on some stores' replies. */
    public static Double number(JsonNode obj, String field) throws AdapterException {
        JsonNode v = obj == null ? null : obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber()) {
            throw new AdapterException("'" + field + "' is " + describe(v) + ", expected a number");
        }
        return v.doubleValue();
    }

    /** An array field, or null when absent. */
    public static JsonNode array(JsonNode obj, String field) throws AdapterException {
        return asArray(obj == null ? null : obj.get(field), field);
    }

    /** A field's value as an array, or null when absent; {@code field} names it in the error. */
    public static JsonNode asArray(JsonNode v, String field) throws AdapterException {
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray()) {
            throw new AdapterException("'" + field + "' is " + describe(v) + ", expected an array");
        }
        return v;
    }

    public static JsonNode requireArray(JsonNode obj, String field) throws AdapterException {
        JsonNode v = array(obj, field);
        if (v == null) {
            throw new AdapterException("'" + field + "' is missing");
        }
        return v;
    }

    /** An object field, or null when absent. */
    public static JsonNode object(JsonNode obj, String field) throws AdapterException {
        JsonNode v = obj == null ? null : obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isObject()) {
            throw new AdapterException("'" + field + "' is " + describe(v) + ", expected an object");
        }
        return v;
    }

    /** True when {@code value} is a non-empty array whose every element passes {@code test}. */
    public static boolean everyElement(JsonNode value, java.util.function.Predicate<JsonNode> test) {
        if (value == null || !value.isArray() || value.isEmpty()) {
            return false;
        }
        for (JsonNode element : value) {
            if (!test.test(element)) {
                return false;
            }
        }
        return true;
    }

    public static boolean flag(JsonNode obj, String field) {
        JsonNode v = obj == null ? null : obj.get(field);
        return v != null && v.asBoolean(false);
    }

    /**
     * Message content flattened to text: a string as is; an array of parts joined by newlines, keeping text parts
     * ({@code text}, {@code input_text}, {@code output_text}, bare strings) and skipping images and audio.
     */
    public static String contentText(JsonNode content, String field) throws AdapterException {
        if (content == null || content.isNull() || content.isMissingNode()) {
            return "";
        }
        if (content.isTextual()) {
            return content.textValue();
        }
        if (content.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : content) {
                String text = null;
                if (part.isTextual()) {
                    text = part.textValue();
                } else if (part.isObject() && part.get("text") != null && part.get("text").isTextual()) {
                    text = part.get("text").textValue();
                }
                if (text != null) {
                    if (sb.length() > 0) {
                        sb.append('\n');
                    }
                    sb.append(text);
                }
            }
            return sb.toString();
        }
        throw new AdapterException("'" + field + "' is " + describe(content) + ", expected a string or parts");
    }

    /**
     * A reply's content as one text: a string as is; text parts ({@code type} "text" or none) joined as they are, as a
     * stream's deltas are. A reply that cites its sources comes as a part per cited span and per stretch between them
     * (Claude's, Cohere's), so the parts are one text, not lines as a request's parts are ({@link #contentText}).
     */
    public static String replyText(JsonNode content, String field) throws AdapterException {
        if (content == null || content.isNull() || content.isMissingNode()) {
            return "";
        }
        if (content.isTextual()) {
            return content.textValue();
        }
        if (!content.isArray()) {
            throw new AdapterException("'" + field + "' is " + describe(content) + ", expected text or parts");
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : content) {
            if ("text".equals(part.path("type").asText("text")) && part.path("text").isTextual()) {
                sb.append(part.get("text").textValue());
            }
        }
        return sb.toString();
    }

    /** Names a JSON value's type for error messages, with a short excerpt of text so the DLQ reader sees it. */
    public static String describe(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "empty";
        }
        if (v.isTextual()) {
            String t = v.textValue().strip();
            return "text \"" + (t.length() > 60 ? t.substring(0, 60) + "..." : t) + "\"";
        }
        if (v.isObject()) {
            return "an object";
        }
        if (v.isArray()) {
            return "an array";
        }
        if (v.isNumber()) {
            return "a number";
        }
        if (v.isBoolean()) {
            return "a boolean";
        }
        return v.isNull() ? "null" : v.getNodeType().toString().toLowerCase(Locale.ROOT);
    }
}
