package io.raglog.proxy;

import java.net.URI;
import java.util.Locale;
import java.util.Map;

/**
 * A route's requests are re-signed by the proxy with AWS Signature Version 4, for this signing name and region.
 *
 * <p>Why: an AWS client that signs with IAM credentials signs the host and path it sends to, the proxy's, and the proxy
 * rewrites both, so AWS would reject the forwarded request. On such a route the proxy drops the client's signature and
 * signs the request as it goes upstream, with its own credentials (as AWS's own {@code aws-sigv4-proxy} does).
 *
 * @param service the signing name ({@code bedrock} for every Bedrock endpoint)
 * @param region the region signed for ({@code us-east-1})
 */
public record AwsSigV4(String service, String region) {

    /**
     * Endpoint prefixes whose signing name is not the prefix itself. Only these are inferred: a guess for any other
     * service would fail at AWS with a signature error far from its cause, so those name the service in the config.
     */
    private static final Map<String, String> SIGNING_NAMES = Map.of(
            "bedrock", "bedrock",
            "bedrock-runtime", "bedrock",
            "bedrock-agent", "bedrock",
            "bedrock-agent-runtime", "bedrock");

    public AwsSigV4 {
        service = blankToNull(service);
        region = blankToNull(region);
        if (service == null || region == null) {
            throw new IllegalArgumentException("AWS SigV4 signing needs a service and a region");
        }
    }

    /**
     * The signing for a route to {@code upstream}: {@code service} and {@code region} as given, or, when null,
     * inferred from a host of the form {@code {endpoint}.{region}.amazonaws.com} ({@code .amazonaws.com.cn} too).
     *
     * @throws IllegalArgumentException naming what could not be inferred and how to give it
     */
    public static AwsSigV4 forUpstream(URI upstream, String service, String region) {
        String host = upstream.getHost() == null ? "" : upstream.getHost().toLowerCase(Locale.ROOT);
        String[] labels = awsLabels(host);
        String s = blankToNull(service);
        String r = blankToNull(region);
        if (s == null && labels != null) {
            // FIPS endpoints (bedrock-runtime-fips) sign with the same name as the plain ones.
            String prefix = labels[0].endsWith("-fips") ? labels[0].substring(0, labels[0].length() - 5) : labels[0];
            s = SIGNING_NAMES.get(prefix);
        }
        if (r == null && labels != null) {
            r = labels[1];
        }
        if (s == null || r == null) {
            throw new IllegalArgumentException("cannot infer the AWS SigV4 " + (s == null && r == null
                    ? "service and region" : s == null ? "service" : "region") + " of the route to " + host
                    + " (inferred only for {bedrock-runtime|bedrock-agent-runtime|bedrock}.REGION.amazonaws.com);"
                    + " give them, e.g. aws_sigv4: {service: bedrock, region: us-east-1} in proxy.yaml or"
                    + " --aws-sigv4 ROUTE=bedrock:us-east-1");
        }
        return new AwsSigV4(s, r);
    }

    /** {@code bedrock/us-east-1}, for logs and the startup listing. */
    public String describe() {
        return service + "/" + region;
    }

    /** The endpoint prefix and the region of {@code {endpoint}.{region}.amazonaws.com}, else null. */
    private static String[] awsLabels(String host) {
        String rest = host.endsWith(".amazonaws.com") ? host.substring(0, host.length() - ".amazonaws.com".length())
                : host.endsWith(".amazonaws.com.cn") ? host.substring(0, host.length() - ".amazonaws.com.cn".length())
                : null;
        if (rest == null) {
            return null;
        }
        String[] labels = rest.split("\\.");
        return labels.length == 2 && !labels[0].isEmpty() && !labels[1].isEmpty() ? labels : null;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
