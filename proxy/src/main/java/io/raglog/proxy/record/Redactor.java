package io.raglog.proxy.record;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Replaces secrets with {@value RedactionRules#REDACTED} before anything is written: header values, query parameter
 * values, user info in URLs, body fields and pointers, and {@code name=value} pairs in form bodies. Stateless and
 * thread-safe; bodies are redacted in place, so callers pass trees they own.
 */
public final class Redactor {

    private static final TextNode REDACTED = TextNode.valueOf(RedactionRules.REDACTED);

    private final RedactionRules rules;
    private final List<JsonPointer> pointers;

    public Redactor(RedactionRules rules) {
        this.rules = rules;
        this.pointers = rules.bodyPointers().stream().map(JsonPointer::compile).toList();
    }

    public RedactionRules rules() {
        return rules;
    }

    public String headerValue(String name, String value) {
        return rules.isSecretHeader(name) ? RedactionRules.REDACTED : value;
    }

    /** The URL with user info and secret query parameter values replaced; the rest byte for byte as it was. */
    public String url(String url) {
        String withoutUserInfo = withoutUserInfo(url);
        int q = withoutUserInfo.indexOf('?');
        if (q < 0) {
            return withoutUserInfo;
        }
        int hash = withoutUserInfo.indexOf('#', q);
        String query = hash < 0 ? withoutUserInfo.substring(q + 1) : withoutUserInfo.substring(q + 1, hash);
        String fragment = hash < 0 ? "" : withoutUserInfo.substring(hash);
        return withoutUserInfo.substring(0, q + 1) + formPairs(query, false) + fragment;
    }

    /**
     * A {@code application/x-www-form-urlencoded} body (or a query string): values of secret names replaced. Body
     * field names count here too, since a form body is a flat object ({@code client_secret=...}).
     */
    public String formPairs(String pairs, boolean alsoBodyFields) {
        if (pairs.isEmpty()) {
            return pairs;
        }
        List<String> out = new ArrayList<>();
        for (String pair : pairs.split("&", -1)) {
            int eq = pair.indexOf('=');
            String rawName = eq < 0 ? pair : pair.substring(0, eq);
            String name = decode(rawName);
            boolean secret = rules.isSecretQueryParam(name) || (alsoBodyFields && rules.isSecretBodyField(name));
            out.add(secret && eq >= 0 ? rawName + "=" + RedactionRules.REDACTED : pair);
        }
        return String.join("&", out);
    }

    /** Redacts configured fields anywhere in the tree and configured pointers; returns the same tree. */
    public JsonNode body(JsonNode body) {
        if (body == null) {
            return null;
        }
        if (body.isTextual()) {
            return body;
        }
        redactFields(body);
        for (JsonPointer pointer : pointers) {
            JsonNode parent = body.at(pointer.head());
            String last = pointer.last().getMatchingProperty();
            if (parent instanceof ObjectNode object && object.has(last)) {
                object.set(last, REDACTED);
            } else if (parent instanceof ArrayNode array && pointer.last().mayMatchElement()
                    && pointer.last().getMatchingIndex() < array.size()) {
                array.set(pointer.last().getMatchingIndex(), REDACTED);
            }
        }
        return body;
    }

    private void redactFields(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            List<String> secret = new ArrayList<>();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (rules.isSecretBodyField(field.getKey())) {
                    secret.add(field.getKey());
                } else {
                    redactFields(field.getValue());
                }
            }
            secret.forEach(name -> object.set(name, REDACTED));
        } else if (node instanceof ArrayNode array) {
            array.forEach(this::redactFields);
        }
    }

    private static String withoutUserInfo(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        int authorityStart = scheme + 3;
        int authorityEnd = authorityStart;
        while (authorityEnd < url.length() && "/?#".indexOf(url.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        int at = url.lastIndexOf('@', authorityEnd - 1);
        if (at < authorityStart) {
            return url;
        }
        return url.substring(0, authorityStart) + RedactionRules.REDACTED + url.substring(at);
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return raw;
        }
    }
}
