package io.raglog.proxy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code proxy.yaml}, as written by a person: snake_case keys, every one optional except routes and sink. Unknown keys
 * are an error, so a misspelt {@code redact} section cannot silently record secrets.
 *
 * <pre>
 * listen: 127.0.0.1:8080
 * admin: 127.0.0.1:9180          # /metrics; "off" for none
 * pipeline: support-bot          # the default pipeline
 * routes:
 *   - {prefix: /openai, upstream: https://api.openai.com}
 *   - {prefix: /cohere, upstream: https://api.cohere.com, pipeline: support-bot}
 *   - {host: qdrant.internal, upstream: http://qdrant:6333}
 *   - {prefix: /bedrock, upstream: https://bedrock-runtime.us-east-1.amazonaws.com, aws_sigv4: true}
 *   - {prefix: /kb, upstream: https://vpce-0a1b.bedrock-agent-runtime.eu-west-1.vpce.amazonaws.com,
 *      aws_sigv4: {service: bedrock, region: eu-west-1}}
 * sink:
 *   kafka: {bootstrap: kafka:9092, topic: raglog.calls, properties: {security.protocol: SASL_SSL}}
 *   # or: file: calls.jsonl
 * redact:
 *   headers: [x-internal-auth]
 *   query_params: [sas]
 *   body_fields: [api_key, /credentials/password]
 * limits: {max_recorded_body_bytes: 4194304, max_queued_calls: 10000, max_queued_bytes: 268435456,
 *          max_signed_body_bytes: 16777216}
 * connect_timeout_ms: 10000
 * upstream_idle_timeout_ms: 4000
 * upstream_ca: /etc/ssl/internal-ca.pem
 * session_header: x-session-id   # copied into each call's session; "off" for none
 * </pre>
 */
record ProxyFile(String listen, String admin, String pipeline, List<RouteEntry> routes, SinkEntry sink,
        RedactEntry redact, LimitsEntry limits, Long connectTimeoutMs, Long upstreamIdleTimeoutMs, String upstreamCa,
        String sessionHeader) {

    record RouteEntry(String prefix, String host, String upstream, String pipeline, AwsSigV4Entry awsSigv4) {
        Route toRoute() {
            if (upstream == null) {
                throw new IllegalArgumentException("a route in proxy.yaml needs an upstream");
            }
            Route route = prefix != null && host == null ? Route.prefix(prefix, upstream)
                    : host != null && prefix == null ? Route.host(host, upstream) : null;
            if (route == null) {
                throw new IllegalArgumentException("a route in proxy.yaml has a prefix or a host, not both or neither");
            }
            route = route.withPipeline(pipeline);
            return awsSigv4 == null || !awsSigv4.sign() ? route
                    : route.signedWithAwsSigV4(awsSigv4.service(), awsSigv4.region());
        }
    }

    /**
     * {@code aws_sigv4: true} (service and region inferred from the upstream's host), {@code false}, or
     * {@code {service: bedrock, region: us-east-1}} with either key optional.
     */
    record AwsSigV4Entry(boolean sign, String service, String region) {

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static AwsSigV4Entry of(boolean sign) {
            return new AwsSigV4Entry(sign, null, null);
        }

        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        static AwsSigV4Entry of(@JsonProperty("service") String service, @JsonProperty("region") String region) {
            return new AwsSigV4Entry(true, service, region);
        }
    }

    record SinkEntry(KafkaEntry kafka, String file) {
        SinkSpec toSpec() {
            if ((kafka == null) == (file == null)) {
                throw new IllegalArgumentException("the sink in proxy.yaml is either kafka or file");
            }
            return kafka != null ? new SinkSpec.Kafka(kafka.bootstrap(), kafka.topic(), kafka.properties())
                    : SinkSpec.file(Path.of(file));
        }
    }

    record KafkaEntry(String bootstrap, String topic, Map<String, String> properties) {}

    record RedactEntry(List<String> headers, List<String> queryParams, List<String> bodyFields) {}

    record LimitsEntry(Integer maxRecordedBodyBytes, Integer maxQueuedCalls, Long maxQueuedBytes,
            Integer maxSignedBodyBytes) {}

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    static ProxyFile read(Path path) {
        try {
            ProxyFile file = YAML.readValue(path.toFile(), ProxyFile.class);
            if (file == null) {
                throw new IllegalArgumentException(path + " is empty");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }
}
