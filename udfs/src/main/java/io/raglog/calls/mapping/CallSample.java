package io.raglog.calls.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.calls.adapters.Bodies;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the model is shown of a call: the endpoint (its path template, never the raw URL with its query string), and
 * the two bodies, redacted and trimmed. Headers are left out: a mapping never points into them, and they are where
 * credentials travel.
 *
 * <p>Redaction: values under keys that name a credential, and strings that look like one (bearer tokens, API keys,
 * JWTs, cloud access keys), and e-mail addresses become {@value #REDACTED}. Trimming keeps the structure a mapping
 * points into: long strings are cut, long arrays keep their first elements, vectors their first numbers, and each cut
 * is listed under {@code trimmed} so the model knows the array is longer than it looks. Indexes of kept elements are
 * unchanged, so a path that resolves in the sample resolves in the call.
 */
final class CallSample {

    static final String REDACTED = "[redacted]";

    private static final Pattern SECRET_KEY = Pattern.compile("(?i)(?:.*[_-])?(?:api[_-]?key|apikey|secret"
            + "|password|passwd|authorization|auth|cookie|credentials?|private[_-]?key|signature)"
            + "|(?:access|refresh|id|auth|bearer|session|api|csrf|xsrf)?[_-]?token");

    private static final Pattern SECRET_VALUE = Pattern.compile("(?i)\\bbearer\\s+[A-Za-z0-9._~+/=-]{8,}"
            + "|\\bsk-[A-Za-z0-9_-]{16,}|\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]+"
            + "|\\bAKIA[0-9A-Z]{16}\\b|\\bgh[pousr]_[A-Za-z0-9]{30,}|\\bxox[abprs]-[A-Za-z0-9-]{10,}"
            + "|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}");

    /** Trimming steps, from generous to tight, tried until the sample fits the size cap. */
    private record Limits(int stringChars, int arrayItems, int vectorNumbers) {}

    private static final List<Limits> STEPS = List.of(
            new Limits(400, 3, 4), new Limits(160, 2, 4), new Limits(60, 1, 2));

    private static final int MAX_NOTES = 20;

    private CallSample() {}

    /** @throws IllegalArgumentException when even the tightest trim does not fit {@code maxChars} */
    static ObjectNode of(EndpointKey key, CallEvent call, int maxChars) {
        for (Limits limits : STEPS) {
            ObjectNode sample = build(key, call, limits);
            if (Json.write(sample).length() <= maxChars) {
                return sample;
            }
        }
        throw new IllegalArgumentException("the call's bodies do not fit " + maxChars
                + " characters even trimmed: too deeply nested or too many fields to show");
    }

    private static ObjectNode build(EndpointKey key, CallEvent call, Limits limits) {
        List<String> notes = new ArrayList<>();
        ObjectNode sample = Json.MAPPER.createObjectNode();
        sample.putObject("endpoint").put("method", key.method()).put("path", key.pathTemplate());
        ObjectNode request = sample.putObject("request");
        request.set("body", trim(Bodies.request(call), "request", limits, notes));
        ObjectNode response = sample.putObject("response");
        response.put("status", call.response() == null ? 0 : call.response().status());
        response.set("body", trim(Bodies.response(call), "response", limits, notes));
        ArrayNode trimmed = sample.putArray("trimmed");
        notes.stream().limit(MAX_NOTES).forEach(trimmed::add);
        if (notes.size() > MAX_NOTES) {
            trimmed.add("... and " + (notes.size() - MAX_NOTES) + " more places trimmed the same way");
        }
        return sample;
    }

    private static JsonNode trim(JsonNode node, String path, Limits limits, List<String> notes) {
        if (node == null || node.isMissingNode()) {
            return Json.MAPPER.nullNode();
        }
        if (node.isTextual()) {
            String redacted = SECRET_VALUE.matcher(node.textValue()).replaceAll(REDACTED);
            if (redacted.length() <= limits.stringChars()) {
                return TextNode.valueOf(redacted);
            }
            notes.add(path + ": first " + limits.stringChars() + " of " + redacted.length() + " characters shown");
            return TextNode.valueOf(redacted.substring(0, limits.stringChars()) + "...");
        }
        if (node.isObject()) {
            ObjectNode out = Json.MAPPER.createObjectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (SECRET_KEY.matcher(f.getKey()).matches() && (f.getValue().isTextual() || f.getValue().isNumber())) {
                    out.put(f.getKey(), REDACTED);
                } else {
                    out.set(f.getKey(), trim(f.getValue(), path + field(f.getKey()), limits, notes));
                }
            }
            return out;
        }
        if (node.isArray()) {
            boolean numbers = node.size() > 0 && node.get(0).isNumber();
            int keep = numbers ? limits.vectorNumbers() : limits.arrayItems();
            ArrayNode out = Json.MAPPER.createArrayNode();
            for (int i = 0; i < Math.min(keep, node.size()); i++) {
                out.add(trim(node.get(i), path + "[" + i + "]", limits, notes));
            }
            if (node.size() > keep) {
                notes.add(path + ": first " + keep + " of " + node.size() + (numbers ? " numbers" : " elements")
                        + " shown");
            }
            return out;
        }
        return node; // numbers, booleans, null
    }

    private static String field(String name) {
        return name.matches("[A-Za-z_$@][A-Za-z0-9_$@-]*") ? "." + name : "[\"" + name + "\"]";
    }
}
