package io.raglog.calls.mapping;

import io.raglog.calls.adapters.Endpoint;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.regex.Pattern;

/**
 * One API endpoint of one pipeline, the unit a field mapping is proposed for and kept under. The path is a template:
 * segments that identify a resource rather than name an operation (numeric ids, UUIDs, hex ids, long tokens) become
 * {@value #ID}, and the query string is dropped, so {@code /v1/kb/123/search} and {@code /v1/kb/456/search} share one
 * mapping and one LLM call. The pipeline is part of the key because two teams may serve different shapes on the same
 * path, and the paper proposes a mapping once per pipeline.
 *
 * <p>A Java record, so Flink keys by it as a POJO type: hashing is stable across JVMs (it only hashes strings).
 *
 * @param host lower case, with the port when the URL had one ({@link Endpoint#authority}): two in-house services
 *     often share a host
 * @param pathTemplate starts with a slash, no trailing slash, no query or fragment
 */
public record EndpointKey(String pipeline, String method, String host, String pathTemplate) implements Serializable {

    public static final String ID = "{id}";

    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** Mongo ObjectIds, SHA digests, short git hashes; a word like "deadbeef" without a digit stays a word. */
    private static final Pattern HEX = Pattern.compile("(?=.*\\d)[0-9a-fA-F]{8,}");
    /** "doc_83921", "kb-2024061101": a run of this many digits is a number someone assigned, not a path word. */
    private static final Pattern DIGIT_RUN = Pattern.compile(".*\\d{5,}.*");
    /** Stripe-style prefixed ids: "cus_9s6XKzkNRiz8i3". */
    private static final Pattern PREFIXED = Pattern.compile("[A-Za-z]{2,10}_(?=[A-Za-z0-9]*\\d)[A-Za-z0-9]{10,}");

    /** ULIDs (26), Firebase push ids (20), base64 ids: long and carrying a digit. */
    static final int LONG_TOKEN_CHARS = 20;
    /** Past this length a segment is an opaque token whatever it holds (a signed blob, an encoded cursor). */
    static final int OPAQUE_CHARS = 40;

    /** The URL is read by {@link Endpoint}, so a mapped endpoint and the built-in adapters see the same path. */
    public static EndpointKey of(CallEvent call) {
        Endpoint endpoint = Endpoint.of(call);
        return new EndpointKey(call.pipeline(), endpoint.method(), endpoint.authority(), template(endpoint.path()));
    }

    /** The path with its identifier segments replaced by {@value #ID}; empty segments and trailing slashes dropped. */
    static String template(String path) {
        StringBuilder out = new StringBuilder();
        for (String segment : path.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            out.append('/').append(isIdentifier(segment) ? ID : segment);
        }
        return out.length() == 0 ? "/" : out.toString();
    }

    static boolean isIdentifier(String segment) {
        if (DIGITS.matcher(segment).matches() || UUID.matcher(segment).matches() || HEX.matcher(segment).matches()
                || DIGIT_RUN.matcher(segment).matches() || PREFIXED.matcher(segment).matches()) {
            return true;
        }
        if (segment.length() >= OPAQUE_CHARS) {
            return true;
        }
        return segment.length() >= LONG_TOKEN_CHARS && segment.chars().anyMatch(Character::isDigit);
    }

    /** For logs, metrics and adapter names: {@code POST search.internal:8080/v1/kb/{id}/search}. */
    public String endpoint() {
        return method + " " + host + pathTemplate;
    }

    @Override
    public String toString() {
        return pipeline + " " + endpoint();
    }
}
