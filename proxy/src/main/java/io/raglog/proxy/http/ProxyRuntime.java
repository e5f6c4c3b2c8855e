package io.raglog.proxy.http;

import io.raglog.proxy.Routes;
import io.raglog.proxy.metrics.ProxyMetrics;
import io.raglog.proxy.record.Recorder;

/**
 * What every connection's handlers share: thread-safe, created once per proxy.
 *
 * @param signing re-signs the routes that ask for AWS SigV4; null when no route does
 * @param maxSignedBodyBytes the largest request body a signed route takes (it is held whole to be signed)
 */
public record ProxyRuntime(Routes routes, UpstreamPools pools, Recorder recorder, ProxyMetrics metrics,
        int maxRecordedBodyBytes, AwsSigning signing, int maxSignedBodyBytes) {}
