package io.raglog.proxy;

import java.net.InetSocketAddress;

/** Parses {@code HOST:PORT}, {@code :PORT}, {@code PORT} and {@code [::1]:PORT}; port 0 asks for an ephemeral one. */
public final class HostPort {

    private HostPort() {}

    public static InetSocketAddress parse(String spec, String defaultHost) {
        String s = spec.strip();
        String host;
        String port;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0 || close + 1 >= s.length() || s.charAt(close + 1) != ':') {
                throw new IllegalArgumentException("expected [IPV6]:PORT, got '" + spec + "'");
            }
            host = s.substring(1, close);
            port = s.substring(close + 2);
        } else {
            int colon = s.lastIndexOf(':');
            host = colon < 0 ? defaultHost : s.substring(0, colon);
            port = colon < 0 ? s : s.substring(colon + 1);
            if (host.isEmpty()) {
                host = defaultHost;
            }
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a port in '" + spec + "'");
        }
        if (p < 0 || p > 65535) {
            throw new IllegalArgumentException("port out of range in '" + spec + "'");
        }
        return new InetSocketAddress(host, p);
    }
}
