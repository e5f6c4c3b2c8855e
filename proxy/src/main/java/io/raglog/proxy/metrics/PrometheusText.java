package io.raglog.proxy.metrics;

import java.util.Locale;
import java.util.Map;

/** Renders a metrics snapshot in the Prometheus text exposition format (version 0.0.4). */
public final class PrometheusText {

    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {}

    public static String render(ProxyMetrics.Snapshot s) {
        StringBuilder b = new StringBuilder(2048);
        counter(b, "raglog_proxy_requests_total", "Calls received from clients.", s.requests());
        counter(b, "raglog_proxy_no_route_total", "Calls no route matched (answered 404 by the proxy).", s.noRoute());
        counter(b, "raglog_proxy_upstream_failures_total",
                "Calls whose upstream could not be reached or closed early, or that had no AWS credentials to be"
                        + " signed with.", s.upstreamFailures());
        counter(b, "raglog_proxy_request_too_large_total",
                "Calls to a route the proxy signs for AWS refused 413: the body is over max_signed_body_bytes.",
                s.tooLarge());
        counter(b, "raglog_proxy_recorded_total", "CallEvents the sink confirmed written.", s.recorded());
        b.append("# HELP raglog_proxy_dropped_total Recordings dropped (the calls themselves passed), by reason.\n");
        b.append("# TYPE raglog_proxy_dropped_total counter\n");
        for (Map.Entry<ProxyMetrics.DropReason, Long> e : s.dropped().entrySet()) {
            b.append("raglog_proxy_dropped_total{reason=\"").append(e.getKey().label()).append("\"} ")
                    .append(e.getValue()).append('\n');
        }
        counter(b, "raglog_proxy_request_bytes_total", "Request body bytes passed upstream.", s.requestBytes());
        counter(b, "raglog_proxy_response_bytes_total", "Response body bytes passed to clients.", s.responseBytes());
        counter(b, "raglog_proxy_recorded_bytes_total", "Bytes of CallEvents written.", s.recordedBytes());
        counter(b, "raglog_proxy_truncated_bodies_total", "Bodies recorded only up to the size cap.",
                s.truncatedBodies());
        b.append("# HELP raglog_proxy_queue_depth Recordings waiting for the sink.\n");
        b.append("# TYPE raglog_proxy_queue_depth gauge\n");
        b.append("raglog_proxy_queue_depth ").append(s.queueDepth()).append('\n');

        b.append("# HELP raglog_proxy_in_flight Calls between their request and the end of their response.\n");
        b.append("# TYPE raglog_proxy_in_flight gauge\n");
        b.append("raglog_proxy_in_flight ").append(s.inFlight()).append('\n');

        String h = "raglog_proxy_added_latency_seconds";
        b.append("# HELP ").append(h).append(" Time the proxy added to a call: its request and response head hops.\n");
        b.append("# TYPE ").append(h).append(" histogram\n");
        long[] counts = s.addedLatency().counts();
        long cumulative = 0;
        for (int i = 0; i < counts.length; i++) {
            cumulative += counts[i];
            String le = i < LatencyHistogram.BOUNDS.length ? format(LatencyHistogram.BOUNDS[i]) : "+Inf";
            b.append(h).append("_bucket{le=\"").append(le).append("\"} ").append(cumulative).append('\n');
        }
        b.append(h).append("_sum ").append(format(s.addedLatency().sumNanos() / 1e9)).append('\n');
        b.append(h).append("_count ").append(cumulative).append('\n');
        return b.toString();
    }

    private static void counter(StringBuilder b, String name, String help, long value) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(" counter\n");
        b.append(name).append(' ').append(value).append('\n');
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, "%s", v);
    }
}
