package io.raglog.proxy;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Maps a path prefix ({@code /openai}) or a Host ({@code openai.internal}) to an upstream base URL. With a prefix the
 * prefix is replaced by the upstream's base: {@code /openai/v1/chat/completions} → {@code
 * https://api.openai.com/v1/chat/completions}. With a host the whole path is appended to the base.
 *
 * @param pathPrefix starts with {@code /}, no trailing slash ({@code /} itself matches every path); null for a host
 *     route
 * @param host lower case, without port; null for a path route
 * @param upstream http or https, no query, no user info
 * @param pipeline the pipeline every call on this route belongs to; null to take it from the call or the default
 * @param awsSigV4 how the proxy re-signs this route's requests for AWS; null to forward them as the client signed them
 */
public record Route(String pathPrefix, String host, URI upstream, String pipeline, AwsSigV4 awsSigV4) {

    public Route {
        if ((pathPrefix == null) == (host == null)) {
            throw new IllegalArgumentException("a route has either a path prefix or a host, not both or neither");
        }
        if (pathPrefix != null) {
            if (!pathPrefix.startsWith("/")) {
                throw new IllegalArgumentException("a route's path prefix starts with '/': " + pathPrefix);
            }
            pathPrefix = pathPrefix.length() > 1 && pathPrefix.endsWith("/")
                    ? pathPrefix.substring(0, pathPrefix.length() - 1) : pathPrefix;
        }
        if (host != null) {
            host = host.strip().toLowerCase(Locale.ROOT);
        }
        String scheme = upstream.getScheme() == null ? "" : upstream.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("an upstream is an http:// or https:// URL: " + upstream);
        }
        if (upstream.getHost() == null) {
            throw new IllegalArgumentException("an upstream URL needs a host: " + upstream);
        }
        if (upstream.getRawUserInfo() != null) {
            throw new IllegalArgumentException("an upstream URL must not carry credentials (the client sends its own):"
                    + " " + upstream.getHost());
        }
        if (upstream.getRawQuery() != null || upstream.getRawFragment() != null) {
            throw new IllegalArgumentException("an upstream URL has no query or fragment: " + upstream);
        }
        if (pipeline != null && pipeline.isBlank()) {
            pipeline = null;
        }
    }

    public Route(String pathPrefix, String host, URI upstream, String pipeline) {
        this(pathPrefix, host, upstream, pipeline, null);
    }

    public static Route prefix(String pathPrefix, String upstream) {
        return new Route(pathPrefix, null, uri(upstream), null);
    }

    public static Route host(String host, String upstream) {
        return new Route(null, host, uri(upstream), null);
    }

    public Route withPipeline(String name) {
        return new Route(pathPrefix, host, upstream, name, awsSigV4);
    }

    /**
     * This route re-signed with AWS SigV4; a null service or region is inferred from the upstream's host.
     *
     * @throws IllegalArgumentException when they are not given and cannot be inferred
     */
    public Route signedWithAwsSigV4(String service, String region) {
        return new Route(pathPrefix, host, upstream, pipeline, AwsSigV4.forUpstream(upstream, service, region));
    }

    /** What {@code --route} and {@code --aws-sigv4} name this route by: its path prefix, else its host. */
    public String match() {
        return pathPrefix != null ? pathPrefix : host;
    }

    /** {@code /openai=https://api.openai.com} (a path route) or {@code openai.internal=https://api.openai.com}. */
    public static Route parse(String spec) {
        int eq = spec.indexOf('=');
        if (eq <= 0 || eq == spec.length() - 1) {
            throw new IllegalArgumentException("a route is PREFIX=URL or HOST=URL, e.g. /openai=https://api.openai.com;"
                    + " got '" + spec + "'");
        }
        String match = spec.substring(0, eq).strip();
        String upstream = spec.substring(eq + 1).strip();
        return match.startsWith("/") ? prefix(match, upstream) : host(match, upstream);
    }

    public boolean https() {
        return upstream.getScheme().equalsIgnoreCase("https");
    }

    public String upstreamHost() {
        return upstream.getHost();
    }

    public int upstreamPort() {
        return upstream.getPort() > 0 ? upstream.getPort() : https() ? 443 : 80;
    }

    /** What the Host header upstream says: the host, and the port when it is not the scheme's default. */
    public String upstreamAuthority() {
        boolean defaultPort = upstream.getPort() < 0 || upstream.getPort() == (https() ? 443 : 80);
        String host = upstream.getHost();
        return defaultPort ? host : host + ":" + upstream.getPort();
    }

    /** {@code scheme://authority}, the start of every URL this route records. */
    public String upstreamOrigin() {
        return upstream.getScheme().toLowerCase(Locale.ROOT) + "://" + upstreamAuthority();
    }

    /** The upstream's base path without a trailing slash; empty for a bare origin. */
    public String basePath() {
        String path = upstream.getRawPath() == null ? "" : upstream.getRawPath();
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    public String describe() {
        return (pathPrefix != null ? pathPrefix : "host " + host) + " -> " + upstream
                + (pipeline != null ? " (pipeline " + pipeline + ")" : "")
                + (awsSigV4 != null ? " (re-signed with AWS SigV4 for " + awsSigV4.describe() + ")" : "");
    }

    private static URI uri(String s) {
        try {
            return new URI(s);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + s, e);
        }
    }
}
