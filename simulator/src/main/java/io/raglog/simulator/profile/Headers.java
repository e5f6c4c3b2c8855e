package io.raglog.simulator.profile;

import io.raglog.simulator.wire.Ids;
import java.util.Map;
import java.util.SplittableRandom;

/** Request and response headers as the proxy records them for each vendor (credentials already redacted). */
final class Headers {

    static final String REDACTED = "REDACTED";

    private Headers() {}

    static Map<String, String> openAiRequest() {
        return CallRecorder.headers("content-type", "application/json", "accept", "application/json",
                "authorization", REDACTED, "user-agent", "OpenAI/Python 1.82.0", "x-stainless-lang", "python",
                "x-stainless-package-version", "1.82.0");
    }

    static String[] openAiResponse(SplittableRandom rng) {
        return new String[] {"x-request-id", "req_" + Ids.hex(rng, 32), "openai-version", "2020-10-01",
            "openai-organization", "org-raglogsim", "x-ratelimit-remaining-requests",
            Integer.toString(4000 + rng.nextInt(990))};
    }

    static Map<String, String> anthropicRequest() {
        return CallRecorder.headers("content-type", "application/json", "accept", "application/json",
                "x-api-key", REDACTED, "anthropic-version", "2023-06-01", "user-agent", "Anthropic/Python 0.52.0");
    }

    static String[] anthropicResponse(SplittableRandom rng) {
        return new String[] {"request-id", "req_011C" + Ids.base62(rng, 20), "anthropic-organization-id",
            "5f3c9a2e-1b7d-4e0a-9c61-7d2f0b8a4e13", "cache-control", "no-cache"};
    }

    static Map<String, String> bearerJson(String userAgent) {
        return CallRecorder.headers("content-type", "application/json", "accept", "application/json",
                "authorization", REDACTED, "user-agent", userAgent);
    }

    static Map<String, String> plainJson(String userAgent) {
        return CallRecorder.headers("content-type", "application/json", "accept", "application/json",
                "user-agent", userAgent);
    }

    /** Pinecone's Python client, as it calls an index's data plane. */
    static Map<String, String> pinecone() {
        return CallRecorder.headers("content-type", "application/json", "accept", "application/json",
                "api-key", REDACTED, "x-pinecone-api-version", "2025-04",
                "user-agent", "python-client-7.0.1 (urllib3:2.4.0)");
    }
}
