package io.raglog.proxy.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.raglog.proxy.record.RecordedBody;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What changes when a message crosses the proxy, and nothing more: hop-by-hop headers stay on their hop, the
 * client's {@code x-raglog-*} headers stay with the proxy, Host names the upstream, and Accept-Encoding keeps only the
 * codings the recorder can read back. Everything else, names, values and order, passes as received.
 */
final class ForwardedHeaders {

    static final String RAGLOG_PREFIX = "x-raglog-";

    /** RFC 9110 §7.6.1 connection-specific fields, plus Expect, which the proxy answers itself. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection", "te",
            "upgrade", "proxy-authorization", "proxy-authenticate", "expect");

    private ForwardedHeaders() {}

    static HttpHeaders request(HttpHeaders in, String upstreamAuthority) {
        Set<String> drop = dropped(in);
        HttpHeaders out = new DefaultHttpHeaders();
        for (Map.Entry<String, String> h : in) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (drop.contains(name) || name.startsWith(RAGLOG_PREFIX) || name.equals("host")) {
                continue;
            }
            if (name.equals("accept-encoding")) {
                String narrowed = decodableCodings(h.getValue());
                if (!narrowed.isEmpty()) {
                    out.add(h.getKey(), narrowed);
                }
                continue;
            }
            out.add(h.getKey(), h.getValue());
        }
        out.set(HttpHeaderNames.HOST, upstreamAuthority);
        return out;
    }

    static HttpHeaders response(HttpHeaders in) {
        Set<String> drop = dropped(in);
        HttpHeaders out = new DefaultHttpHeaders();
        for (Map.Entry<String, String> h : in) {
            if (!drop.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                out.add(h.getKey(), h.getValue());
            }
        }
        return out;
    }

    /** The client's {@code x-raglog-*} headers: the run id and pipeline the recording needs, never forwarded. */
    static List<Map.Entry<String, String>> raglogHeaders(HttpHeaders in) {
        List<Map.Entry<String, String>> out = new ArrayList<>(2);
        for (Map.Entry<String, String> h : in) {
            if (h.getKey().toLowerCase(Locale.ROOT).startsWith(RAGLOG_PREFIX)) {
                out.add(new AbstractMap.SimpleImmutableEntry<>(h.getKey(), h.getValue()));
            }
        }
        return out;
    }

    static List<Map.Entry<String, String>> entries(HttpHeaders headers) {
        List<Map.Entry<String, String>> out = new ArrayList<>(headers.size());
        for (Map.Entry<String, String> h : headers) {
            out.add(new AbstractMap.SimpleImmutableEntry<>(h.getKey(), h.getValue()));
        }
        return out;
    }

    /**
     * Only codings the recorder can undo, so the recorded body is always readable: a client that accepts
     * {@code gzip, deflate, br, zstd} still gets a coding it accepts. {@code *} is dropped for the same reason.
     */
    static String decodableCodings(String acceptEncoding) {
        List<String> kept = new ArrayList<>();
        for (String token : acceptEncoding.split(",")) {
            String coding = token.strip();
            if (coding.isEmpty()) {
                continue;
            }
            int semicolon = coding.indexOf(';');
            String name = semicolon < 0 ? coding : coding.substring(0, semicolon).strip();
            if (RecordedBody.decodable(name)) {
                kept.add(coding);
            }
        }
        return String.join(", ", kept);
    }

    private static Set<String> dropped(HttpHeaders in) {
        Set<String> drop = new HashSet<>(HOP_BY_HOP);
        for (String connection : in.getAll(HttpHeaderNames.CONNECTION)) {
            for (String token : connection.split(",")) {
                drop.add(token.strip().toLowerCase(Locale.ROOT));
            }
        }
        return drop;
    }
}
