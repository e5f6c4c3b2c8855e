package io.raglog.calls.adapters;

import io.raglog.schemas.CallEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The parts of a captured URL that adapters match on. Matching is by path suffix and body shape rather than by
 * host, because a logging proxy may sit in front of the vendor with a path prefix
 * ({@code http://proxy:8080/openai/v1/chat/completions}) and teams self-host OpenAI-compatible servers anywhere.
 *
 * @param host lower case, without port; empty when the URL was recorded as a bare path
 * @param path as recorded, without query or fragment and without a trailing slash
 */
public record Endpoint(String method, String host, String path, String query) {

    public static Endpoint of(CallEvent call) {
        String method = call.request().method() == null ? "" : call.request().method().toUpperCase(Locale.ROOT);
        String url = call.request().url() == null ? "" : call.request().url().strip();
        String host = "";
        String rest = url;
        int scheme = url.indexOf("://");
        if (scheme >= 0) {
            String afterScheme = url.substring(scheme + 3);
            int slash = indexOfAny(afterScheme, "/?#");
            String authority = slash < 0 ? afterScheme : afterScheme.substring(0, slash);
            rest = slash < 0 ? "" : afterScheme.substring(slash);
            host = hostOf(authority);
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
        while (rest.length() > 1 && rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        return new Endpoint(method, host, rest.isEmpty() ? "/" : rest, query);
    }

    public boolean isPost() {
        return "POST".equals(method);
    }

    public boolean isGet() {
        return "GET".equals(method) || "HEAD".equals(method);
    }

    /** Case-insensitive; {@code suffix} starts with a slash so that {@code /embed} does not match {@code /xembed}. */
    public boolean pathEndsWith(String suffix) {
        return path.toLowerCase(Locale.ROOT).endsWith(suffix.toLowerCase(Locale.ROOT));
    }

    public boolean pathContains(String part) {
        return path.toLowerCase(Locale.ROOT).contains(part.toLowerCase(Locale.ROOT));
    }

    public boolean hostEndsWith(String suffix) {
        return host.endsWith(suffix.toLowerCase(Locale.ROOT));
    }

    public List<String> segments() {
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

    private static String hostOf(String authority) {
        String h = authority;
        int at = h.lastIndexOf('@');
        if (at >= 0) {
            h = h.substring(at + 1);
        }
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            return (close < 0 ? h : h.substring(0, close + 1)).toLowerCase(Locale.ROOT);
        }
        int colon = h.indexOf(':');
        return (colon < 0 ? h : h.substring(0, colon)).toLowerCase(Locale.ROOT);
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
