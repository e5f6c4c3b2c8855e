package io.raglog.proxy;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** Finds the route of a request: a Host route first, else the longest path prefix that matches whole segments. */
public final class Routes {

    /** A matched request: its route and the path and query to send upstream. */
    public record Match(Route route, String upstreamPathAndQuery) {
        public String upstreamUrl() {
            return route.upstreamOrigin() + upstreamPathAndQuery;
        }
    }

    private final List<Route> hostRoutes;
    private final List<Route> prefixRoutes;

    public Routes(List<Route> routes) {
        this.hostRoutes = routes.stream().filter(r -> r.host() != null).toList();
        this.prefixRoutes = routes.stream().filter(r -> r.pathPrefix() != null)
                .sorted(Comparator.comparingInt((Route r) -> r.pathPrefix().length()).reversed())
                .toList();
    }

    /**
     * @param requestUri the request target as received: origin form ({@code /openai/v1/x?y}) or absolute form
     * @param hostHeader the Host header, may be null
     * @return null when no route matches
     */
    public Match resolve(String requestUri, String hostHeader) {
        String target = requestUri;
        String host = hostHeader;
        int scheme = target.indexOf("://");
        if (!target.startsWith("/") && scheme > 0) {
            int pathStart = target.indexOf('/', scheme + 3);
            host = pathStart < 0 ? target.substring(scheme + 3) : target.substring(scheme + 3, pathStart);
            target = pathStart < 0 ? "/" : target.substring(pathStart);
        }
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q);

        String bareHost = bareHost(host);
        for (Route r : hostRoutes) {
            if (r.host().equals(bareHost)) {
                return new Match(r, join(r.basePath(), path) + query);
            }
        }
        for (Route r : prefixRoutes) {
            String prefix = r.pathPrefix();
            if (prefix.equals("/")) {
                return new Match(r, join(r.basePath(), path) + query);
            }
            if (path.equals(prefix) || path.startsWith(prefix + "/")) {
                return new Match(r, join(r.basePath(), path.substring(prefix.length())) + query);
            }
        }
        return null;
    }

    private static String join(String base, String rest) {
        String joined = base + rest;
        return joined.isEmpty() ? "/" : joined;
    }

    private static String bareHost(String host) {
        if (host == null) {
            return "";
        }
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            return close < 0 ? h : h.substring(1, close);
        }
        int colon = h.lastIndexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }
}
