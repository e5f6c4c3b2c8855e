package io.raglog.calls.adapters;

import io.raglog.schemas.CallEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The parts of a captured URL that adapters match on, and the one place raglog takes a call's URL apart (the field
 * mappings key unknown endpoints by the same parts, {@code EndpointKey}). Matching is by path suffix and body shape
 * rather than by host, because a logging proxy may sit in front of the vendor with a path prefix
 * ({@code http://proxy:8080/openai/v1/chat/completions}) and teams self-host OpenAI-compatible servers anywhere.
 *
 * <p>The path is normalised the same way for every reader, because a difference there decides whether a call is
 * recognised at all: it always starts with a slash (a bare {@code v1/embeddings} is the path {@code /v1/embeddings}),
 * and empty segments are dropped, so a proxy base URL with a trailing slash ({@code /openai//v1/embeddings}) or a
 * trailing slash on the call still ends with the vendor's path. The method loses surrounding white space for the same
 * reason: {@code "POST "} is a POST.
 *
 * @param method upper case, stripped
 * @param host lower case, without port or user info; empty when the URL was recorded as a bare path
 * @param port as written in the URL; empty when it names none
 * @param path without query or fragment, starting with a slash, no empty segments, no trailing slash
 * @param query without the question mark; empty when there is none
 */
public record Endpoint(String method, String host, String port, String path, String query) {

    /**
     * The endpoint this thread took apart last, the method and URL it was taken from, and its segments once an
     * adapter asked for them (several do, for every call: the Elasticsearch and Qdrant adapters look for a segment).
     */
    private static final class Last {
        final String method;
        final String url;
        final Endpoint endpoint;
        List<String> segments;

        Last(String method, String url, Endpoint endpoint) {
            this.method = method;
            this.url = url;
            this.endpoint = endpoint;
        }
    }

    /**
     * The classifier asks each adapter in turn whether it accepts a call, and each takes the call's URL apart:
     * two dozen times the same substrings, 1.8 KB of the 33.5 KB decoding a call allocated (JMH). The last one is
     * kept per thread (the Flink task's, never shared or locked) and handed out again for the same method and URL.
     */
    private static final ThreadLocal<Last> LAST = new ThreadLocal<>();

    public static Endpoint of(CallEvent call) {
        String method = call.request().method();
        String url = call.request().url();
        Last last = LAST.get();
        if (last != null && Objects.equals(last.method, method) && Objects.equals(last.url, url)) {
            return last.endpoint;
        }
        Endpoint endpoint = of(method, url);
        LAST.set(new Last(method, url, endpoint));
        return endpoint;
    }

    private static Endpoint of(String recordedMethod, String recordedUrl) {
        String method = recordedMethod == null ? "" : recordedMethod.strip().toUpperCase(Locale.ROOT);
        String url = recordedUrl == null ? "" : recordedUrl.strip();
        String authority = "";
        String rest = url;
        int scheme = url.indexOf("://");
        if (scheme >= 0) {
            String afterScheme = url.substring(scheme + 3);
            int slash = indexOfAny(afterScheme, "/?#");
            authority = slash < 0 ? afterScheme : afterScheme.substring(0, slash);
            rest = slash < 0 ? "" : afterScheme.substring(slash);
        }
        int fragment = rest.indexOf('#');
        if (fragment >= 0) {
            rest = rest.substring(0, fragment);
        }
        String query = "";
        int q = rest.indexOf('?');
        if (q >= 0) {
            query = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        String hostAndPort = withoutUserInfo(authority).toLowerCase(Locale.ROOT);
        int portStart = portStart(hostAndPort);
        return new Endpoint(method, portStart < 0 ? hostAndPort : hostAndPort.substring(0, portStart),
                portStart < 0 ? "" : hostAndPort.substring(portStart + 1), normalisedPath(rest), query);
    }

    /**
     * The host with its port when the URL had one: what tells two in-house services on one machine apart, where
     * adapters of public APIs match on {@link #host} alone.
     */
    public String authority() {
        return port.isEmpty() ? host : host + ":" + port;
    }

    public boolean isPost() {
        return "POST".equals(method);
    }

    public boolean isGet() {
        return "GET".equals(method) || "HEAD".equals(method);
    }

    /**
     * Case-insensitive; {@code suffix} starts with a slash so that {@code /embed} does not match {@code /xembed}.
     * Compared in place: every adapter asks for every call, and lower-casing a suffix such as
     * {@code :embedContent} made a copy each time.
     */
    public boolean pathEndsWith(String suffix) {
        int from = path.length() - suffix.length();
        return from >= 0 && path.regionMatches(true, from, suffix, 0, suffix.length());
    }

    /** Case-insensitive, compared in place as {@link #pathEndsWith} is. */
    public boolean pathContains(String part) {
        for (int from = 0, last = path.length() - part.length(); from <= last; from++) {
            if (path.regionMatches(true, from, part, 0, part.length())) {
                return true;
            }
        }
        return false;
    }

    /** The host is lower case already; {@code suffix} is compared ignoring case. */
    public boolean hostEndsWith(String suffix) {
        int from = host.length() - suffix.length();
        return from >= 0 && host.regionMatches(true, from, suffix, 0, suffix.length());
    }

    /** The path's segments, split once per endpoint the thread took apart last (adapters ask call after call). */
    public List<String> segments() {
        Last last = LAST.get();
        if (last == null || last.endpoint != this) {
            return split(path);
        }
        if (last.segments == null) {
            last.segments = split(path);
        }
        return last.segments;
    }

    private static List<String> split(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The segment right after the last occurrence of {@code segment}, e.g. the collection after "collections". */
    public String segmentAfter(String segment) {
        List<String> segs = segments();
        for (int i = segs.size() - 2; i >= 0; i--) {
            if (segs.get(i).equalsIgnoreCase(segment)) {
                return segs.get(i + 1);
            }
        }
        return null;
    }

    /**
     * The model a Google-style path names before its method: "gemini-2.0-flash" from
     * {@code /v1beta/models/gemini-2.0-flash:generateContent} (Vertex AI's {@code …/publishers/google/models/…} too);
     * null for any other path.
     */
    public String modelBeforeMethod() {
        return idBeforeMethod("models");
    }

    /**
     * The id a Google-style path names after {@code collection} and before its method: "4514125379258482688" of
     * {@code …/indexEndpoints/4514125379258482688:findNeighbors} for "indexEndpoints"; null when the path has no such
     * segment or it names no method.
     */
    public String idBeforeMethod(String collection) {
        String id = segmentAfter(collection);
        int colon = id == null ? -1 : id.lastIndexOf(':');
        return colon > 0 ? id.substring(0, colon) : null;
    }

    /**
     * Vertex AI's {@code …/models/{model}:rawPredict} or {@code :streamRawPredict}: a partner model (Claude, Mistral,
     * Llama) or a model deployed to an endpoint, taking its own vendor's request body as it is; the model, when the
     * path names one, is {@link #modelBeforeMethod}'s ({@code claude-3-5-sonnet-v2@20241022}).
     */
    public boolean isRawPredict() {
        return pathEndsWith(":rawPredict") || pathEndsWith(":streamRawPredict");
    }

    /**
     * The model an Amazon Bedrock runtime path names before its operation ({@code /model/{modelId}/converse},
     * {@code …/converse-stream}, {@code …/invoke}, {@code …/invoke-with-response-stream}): SDKs escape the id's colon
     * ({@code anthropic.claude-3-5-haiku-20241022-v1%3A0}), and an inference profile named by its ARN is read as the
     * profile ({@code us.anthropic.claude-…}), escaped or not. Null for any other path.
     */
    public String bedrockModel() {
        List<String> segs = segments();
        int model = -1;
        for (int i = segs.size() - 3; i >= 0; i--) {
            if (segs.get(i).equals("model")) {
                model = i;
                break;
            }
        }
        if (model < 0) {
            return null;
        }
        String id = bedrockModelOf(unescaped(String.join("/", segs.subList(model + 1, segs.size() - 1))));
        return id.isEmpty() ? null : id;
    }

    /**
     * A Bedrock model as an id: a model or inference-profile ARN ({@code arn:aws:bedrock:…:foundation-model/amazon
     * .rerank-v1:0}) read as the id after its last slash, an id as it is; null stays null.
     */
    public static String bedrockModelOf(String idOrArn) {
        return idOrArn == null || !idOrArn.startsWith("arn:") ? idOrArn
                : idOrArn.substring(idOrArn.lastIndexOf('/') + 1);
    }

    /** Percent-escapes undone; a plus stays a plus (it is not a space in a path), and a malformed escape stays. */
    private static String unescaped(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        try {
            return java.net.URLDecoder.decode(segment.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return segment;
        }
    }

    /**
     * The decoded value of the query's first parameter named {@code name} (Azure AI Search's {@code ?search=}, the
     * {@code ?limit=} supabase-js puts a search's top k in), null when the query names none. Read on demand: few
     * adapters need a parameter, and only for the calls they accepted.
     */
    public String queryParameter(String name) {
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && unescapedParameter(pair.substring(0, eq)).equals(name)) {
                return unescapedParameter(pair.substring(eq + 1));
            }
        }
        return null;
    }

    /** A query part as form-encoding writes it (a plus is a space there), or as it is when malformed. */
    private static String unescapedParameter(String part) {
        try {
            return java.net.URLDecoder.decode(part, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return part;
        }
    }

    /** The segment right before the last occurrence of {@code segment}, e.g. the index before "_search". */
    public String segmentBefore(String segment) {
        List<String> segs = segments();
        for (int i = segs.size() - 1; i >= 1; i--) {
            if (segs.get(i).equalsIgnoreCase(segment)) {
                return segs.get(i - 1);
            }
        }
        return null;
    }

    /** User info ({@code svc:s3cr3t@}) never leaves this class: it would end up in keys, state and logs. */
    private static String withoutUserInfo(String authority) {
        int at = authority.lastIndexOf('@');
        return at < 0 ? authority : authority.substring(at + 1);
    }

    /** Where the port's colon is, or -1; an IPv6 literal keeps its colons inside the brackets. */
    private static int portStart(String hostAndPort) {
        if (!hostAndPort.startsWith("[")) {
            return hostAndPort.indexOf(':');
        }
        int close = hostAndPort.indexOf(']');
        return close < 0 ? -1 : hostAndPort.indexOf(':', close);
    }

    private static String normalisedPath(String path) {
        if (path.length() > 1 && path.charAt(0) == '/' && path.charAt(path.length() - 1) != '/'
                && !path.contains("//")) {
            return path; // already normal, as nearly every URL is: no copy (every call's URL comes through here)
        }
        StringBuilder out = new StringBuilder();
        for (String segment : path.split("/")) {
            if (!segment.isEmpty()) {
                out.append('/').append(segment);
            }
        }
        return out.length() == 0 ? "/" : out.toString();
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
