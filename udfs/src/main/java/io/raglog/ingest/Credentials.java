package io.raglog.ingest;

import io.raglog.schemas.CredentialHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Keeps credentials out of what raglog stores about a pipeline's calls. Producers are meant to redact them (the proxy
 * does), but one that does not, an OTel SDK recording request headers as span attributes, or a spoiled message,
 * would otherwise carry a pipeline's API keys and tokens into raglog's dead-letter topic for every reader of it.
 *
 * <p>Two layers: the headers of every decoded call lose the values of credential headers, whatever else happens to
 * it; and the bytes of a message kept as a dead letter lose whatever looks like a credential in them: an
 * {@code Authorization}-style scheme and its token, a credential header's value, a key in a URL's query. The bytes
 * are scrubbed as bytes (read as ISO-8859-1, one char per byte), so a message that is not UTF-8 keeps every other
 * byte as it was.
 */
public final class Credentials {

    public static final String REDACTED = "REDACTED";

    /**
     * A credential header's name as {@link CredentialHeaders#isCredential} knows it: one of its names, or a compound
     * name ending in a credential's word after a dash ({@code x-openai-api-key}).
     */
    private static final String HEADER_NAMES = CredentialHeaders.NAMES.stream().map(Pattern::quote)
            .collect(Collectors.joining("|")) + "|[A-Za-z0-9_-]*[A-Za-z0-9_]-(?:"
            + String.join("|", CredentialHeaders.COMPOUND_ENDINGS) + ")";

    /** {@code Bearer sk-...}, {@code Basic dXNlcjpwYXNz}: a scheme and a token that looks like one. */
    private static final Pattern SCHEME_TOKEN =
            Pattern.compile("(?i)\\b(bearer|basic|apikey|token)(\\s+)([A-Za-z0-9._~+/=-]{8,})");

    /** A JSON field named like a credential header (also as an OTel attribute: http.request.header.x-api-key). */
    private static final Pattern HEADER_FIELD = Pattern.compile(
            "(?i)(\"(?:[A-Za-z0-9_-]+\\.)*(?:" + HEADER_NAMES + ")\"\\s*:\\s*\\[?\\s*\")((?:[^\"\\\\]|\\\\.)*)(\")");

    /** An OTLP/JSON attribute named like a credential header: {"key": "http.request.header.x-api-key", "value": ...}. */
    private static final Pattern OTLP_ATTRIBUTE = Pattern.compile("(?i)(\"key\"\\s*:\\s*\"(?:[A-Za-z0-9_-]+\\.)*(?:"
            + HEADER_NAMES + ")\"\\s*,\\s*\"value\"\\s*:\\s*\\{[^}]*?\"stringValue\"\\s*:\\s*\")((?:[^\"\\\\]|\\\\.)*)(\")");

    /** {@code ?api_key=...}, {@code &key=...}: keys some APIs take in the URL. */
    private static final Pattern QUERY_KEY =
            Pattern.compile("(?i)([?&](?:api[_-]?key|key|access_token|token)=)([^&\\s\"'#]+)");

    private Credentials() {}

    /** The headers with the values of credential headers replaced; the same map when there are none. */
    public static Map<String, String> redactHeaders(Map<String, String> headers) {
        if (headers == null || !anyCredentialHeader(headers)) {
            return headers;
        }
        // at its size and in order, as decoded headers are held (a LinkedHashMap's table and entries cost more)
        Map<String, String> out = new CompactLinkedMap<>(headers.size());
        headers.forEach((name, value) -> out.put(name, isCredentialHeader(name) ? REDACTED : value));
        return out;
    }

    /**
     * A loop the JIT can keep on the stack: every call's headers are asked, and a stream's pipeline and lambdas were
     * 3 % of what decoding a call allocated (JFR, issue #27).
     */
    private static boolean anyCredentialHeader(Map<String, String> headers) {
        for (String name : headers.keySet()) {
            if (isCredentialHeader(name)) {
                return true;
            }
        }
        return false;
    }

    /** Also as an OTel attribute: {@code http.request.header.x-api-key}. */
    static boolean isCredentialHeader(String name) {
        int dot = name.lastIndexOf('.');
        return CredentialHeaders.isCredential(dot < 0 ? name : name.substring(dot + 1));
    }

    /** The bytes with everything that looks like a credential replaced; the same array when nothing does. */
    public static byte[] redactPayload(byte[] payload) {
        if (payload == null || payload.length == 0) {
            return payload;
        }
        String text = new String(payload, StandardCharsets.ISO_8859_1);
        // The regexes cost a lot on big payloads (a dead letter can be a 1 MB trace); a lower-case copy searched for
        // the words each one needs lets most payloads skip most of them.
        String lower = text.toLowerCase(Locale.ROOT);
        String scrubbed = text;
        if (containsAny(lower, HEADER_WORDS)) {
            scrubbed = replace(HEADER_FIELD, scrubbed, m -> m.group(1) + REDACTED + m.group(3));
            scrubbed = replace(OTLP_ATTRIBUTE, scrubbed, m -> m.group(1) + REDACTED + m.group(3));
        }
        if (containsFollowedBySpace(lower, SCHEME_WORDS)) {
            scrubbed = replace(SCHEME_TOKEN, scrubbed, m -> looksLikeToken(m.group(3))
                    ? m.group(1) + m.group(2) + REDACTED : m.group());
        }
        if (containsAny(lower, QUERY_WORDS)) {
            scrubbed = replace(QUERY_KEY, scrubbed, m -> m.group(1) + REDACTED);
        }
        return scrubbed.equals(text) ? payload : scrubbed.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** One of these is in every match of {@link #HEADER_FIELD} and {@link #OTLP_ATTRIBUTE}. */
    private static final List<String> HEADER_WORDS = Stream.concat(CredentialHeaders.NAMES.stream(),
            CredentialHeaders.COMPOUND_ENDINGS.stream().map(ending -> "-" + ending + "\"")).toList();
    /** Every match of {@link #SCHEME_TOKEN} is one of these followed by white space. */
    private static final List<String> SCHEME_WORDS = List.of("bearer", "basic", "apikey", "token");
    /** One of these is in every match of {@link #QUERY_KEY}. */
    private static final List<String> QUERY_WORDS = List.of("key=", "token=");

    private static boolean containsAny(String lower, List<String> words) {
        for (String w : words) {
            if (lower.contains(w)) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsFollowedBySpace(String lower, List<String> words) {
        for (String w : words) {
            for (int at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + 1)) {
                int next = at + w.length();
                if (next < lower.length() && Character.isWhitespace(lower.charAt(next))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Tokens have digits or are long; "Basic understanding" is prose. */
    private static boolean looksLikeToken(String word) {
        return !word.equals(REDACTED) && (word.length() >= 20 || word.chars().anyMatch(Character::isDigit));
    }

    private static String replace(Pattern pattern, String text, java.util.function.Function<Matcher, String> with) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        do {
            m.appendReplacement(out, Matcher.quoteReplacement(with.apply(m)));
        } while (m.find());
        m.appendTail(out);
        return out.toString();
    }
}
