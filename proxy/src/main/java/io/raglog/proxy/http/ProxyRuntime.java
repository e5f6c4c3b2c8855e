package io.raglog.proxy.http;

import io.raglog.proxy.Routes;
import io.raglog.proxy.metrics.ProxyMetrics;
import io.raglog.proxy.record.Recorder;

/** What every connection's handlers share: thread-safe, created once per proxy. */
public record ProxyRuntime(Routes routes, UpstreamPools pools, Recorder recorder, ProxyMetrics metrics,
        int maxRecordedBodyBytes) {}
