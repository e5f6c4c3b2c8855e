package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.proxy.FakeUpstream.Reply;
import io.raglog.proxy.record.CallEventFactory;
import io.raglog.proxy.record.EventStreamFrames;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.asynchttpclient.AsyncCompletionHandler;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Dsl;
import org.asynchttpclient.HttpResponseBodyPart;
import org.asynchttpclient.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real clients (the JDK's HttpClient and async-http-client) through the proxy to a local upstream speaking the
 * OpenAI, Qdrant and Cohere wire formats: what each side sends reaches the other byte for byte, and each call is
 * recorded whole, redacted, in the file sink.
 */
class ProxyPassThroughTest {

    private static final int CAP = 64 * 1024;

    @TempDir
    static Path dir;

    static FakeUpstream upstream;
    static LoggingProxy proxy;
    static CallLog log;
    static HttpClient jdk;
    static AsyncHttpClient ahc;
    static volatile CountDownLatch streamGate;
    static int closedPort;

    static final String BEDROCK_DELTA = "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Acme\"},\"p\":\"abcd\"}";
    static final String BEDROCK_METADATA = "{\"usage\":{\"inputTokens\":12,\"outputTokens\":3,\"totalTokens\":15},"
            + "\"metrics\":{\"latencyMs\":400}}";
    /** A Converse stream as Bedrock frames it, each message flushed on its own as Bedrock sends them. */
    static final List<byte[]> BEDROCK_FRAMES = List.of(
            EventStreamFrames.event("messageStart", "{\"role\":\"assistant\"}"),
            EventStreamFrames.event("contentBlockDelta", BEDROCK_DELTA),
            EventStreamFrames.event("messageStop", "{\"stopReason\":\"end_turn\"}"),
            EventStreamFrames.event("metadata", BEDROCK_METADATA));

    @BeforeAll
    static void start() throws IOException {
        upstream = new FakeUpstream()
                .on("/v1/chat/completions", r -> new String(r.body(), StandardCharsets.UTF_8).contains("\"stream\":true")
                        ? Reply.eventStream(Wire.generateStream(), streamGate)
                        : Reply.json(200, Wire.rewriteResponse(), "x-request-id", "req_rewrite", "openai-processing-ms",
                                "212"))
                .on("/v1/embeddings", Reply.json(200, Wire.embeddingsResponse()))
                .on("/v1/responses", Reply.json(429, Wire.rateLimitError(), "retry-after-ms", "120",
                        "x-ratelimit-remaining-requests", "0"))
                .on("/v1/models", Reply.gzipJson("{\"object\":\"list\",\"data\":[{\"id\":\"gpt-4o\",\"object\":\"model\"}]}"))
                .on("/collections/reports/points/search", Reply.json(200, Wire.qdrantSearchResponse()))
                .on("/collections/reports/points", r -> Reply.json(200,
                        "{\"result\":{\"operation_id\":7,\"status\":\"completed\"},\"received\":" + r.body().length + "}"))
                .on("/v2/rerank", Reply.json(200, Wire.cohereRerankResponse()))
                .on("/model/amazon.nova-lite-v1%3A0/converse-stream", new Reply(200,
                        List.<String[]>of(new String[] {"Content-Type", "application/vnd.amazon.eventstream"},
                                new String[] {"x-amzn-RequestId", "req_bedrock"}),
                        BEDROCK_FRAMES, true, null));
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String base = upstream.baseUri().toString();
        proxy = LoggingProxy.start(ProxyConfig.builder()
                .listenOnEphemeralPort()
                .admin(new InetSocketAddress("127.0.0.1", 0))
                .route(Route.prefix("/openai", base))
                .route(Route.prefix("/qdrant", base))
                .route(Route.prefix("/cohere", base).withPipeline("rerank-service"))
                .route(Route.prefix("/bedrock", base))
                .route(Route.prefix("/down", "http://127.0.0.1:" + closedPort))
                .defaultPipeline("support-assistant")
                .sink(SinkSpec.file(dir.resolve("calls.jsonl")))
                .maxRecordedBodyBytes(CAP)
                .build());
        log = new CallLog(dir.resolve("calls.jsonl"));
        jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        ahc = Dsl.asyncHttpClient(Dsl.config().setRequestTimeout(Duration.ofSeconds(30)));
    }

    @AfterAll
    static void stop() throws IOException {
        ahc.close();
        proxy.close();
        upstream.close();
    }

    private static URI viaProxy(String path) {
        return proxy.baseUri().resolve(path);
    }

    private static CallEvent recordedCallWhere(String what, java.util.function.Predicate<CallEvent> match) {
        Eventually.await(what, Duration.ofSeconds(15), () -> log.awaitEvents(0).stream().anyMatch(match));
        return log.awaitEvents(0).stream().filter(match).findFirst().orElseThrow();
    }

    /**
     * The recording of the one call this class makes to a path. The proxy records after it answers, so a path two
     * tests call could still show the other test's call when this one's is awaited: those tests match on what their
     * own call carries ({@link #recordedCallWhere}) instead.
     */
    private static CallEvent recordedCallTo(String pathSuffix) {
        Eventually.await("a recorded call to " + pathSuffix, Duration.ofSeconds(15),
                () -> !log.to(pathSuffix).isEmpty());
        List<CallEvent> calls = log.to(pathSuffix);
        assertThat(calls).as("recordings of calls to " + pathSuffix + ": only one test may call it").hasSize(1);
        return calls.get(0);
    }

    @Test
    void shouldForwardAChatCallUnchangedAndRecordItRedacted() throws Exception {
        String body = Wire.rewriteRequest();
        HttpResponse<byte[]> response = jdk.send(HttpRequest.newBuilder(viaProxy("/openai/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + FakeSecrets.OPENAI_PROJECT)
                .header("User-Agent", "OpenAI/Python 1.82.0")
                .header("x-raglog-run-id", "run-0042")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(Wire.rewriteResponse().getBytes(StandardCharsets.UTF_8));
        assertThat(response.headers().firstValue("x-request-id")).contains("req_rewrite");
        assertThat(response.headers().firstValue("openai-processing-ms")).contains("212");

        FakeUpstream.Received sent = upstream.received().stream()
                .filter(r -> Arrays.equals(r.body(), body.getBytes(StandardCharsets.UTF_8))).findFirst().orElseThrow();
        assertThat(sent.pathAndQuery()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("Authorization")).as("the credential still reaches the vendor")
                .isEqualTo("Bearer " + FakeSecrets.OPENAI_PROJECT);
        assertThat(sent.header("User-Agent")).isEqualTo("OpenAI/Python 1.82.0");
        assertThat(sent.header("Host")).isEqualTo("127.0.0.1:" + upstream.baseUri().getPort());
        assertThat(sent.header("x-raglog-run-id")).as("raglog's own headers stay with the proxy").isNull();

        CallEvent call = recordedCallWhere("the chat call's recording", c -> "run-0042".equals(c.runHint()));
        assertThat(call.schema()).isEqualTo("raglog.call/v1");
        assertThat(call.source()).isEqualTo("proxy");
        assertThat(call.pipeline()).isEqualTo("support-assistant");
        assertThat(call.runHint()).isEqualTo("run-0042");
        assertThat(call.request().method()).isEqualTo("POST");
        assertThat(call.request().url()).isEqualTo(upstream.baseUri() + "/v1/chat/completions");
        assertThat(call.request().headers()).containsEntry("authorization", "REDACTED")
                .containsEntry("content-type", "application/json")
                .containsEntry("user-agent", "OpenAI/Python 1.82.0")
                .doesNotContainKey("x-raglog-run-id");
        assertThat(call.request().headers().keySet()).allMatch(name -> name.equals(name.toLowerCase()));
        assertThat(call.request().body()).isEqualTo(Json.MAPPER.readTree(body));
        assertThat(call.response().status()).isEqualTo(200);
        assertThat(call.response().body()).isEqualTo(Json.MAPPER.readTree(Wire.rewriteResponse()));
        assertThat(call.response().headers()).containsEntry("x-request-id", "req_rewrite");
        assertThat(call.startedAt()).isBeforeOrEqualTo(call.endedAt());

        JsonNode line = Json.MAPPER.readTree(log.lines().stream().filter(l -> l.contains("run-0042")).findFirst()
                .orElseThrow());
        assertThat(ContractSchema.violationsOfCallV1(line)).isEmpty();
        assertThat(FakeSecrets.foundIn(new String(log.bytes(), StandardCharsets.UTF_8))).isEmpty();
    }

    @Test
    void shouldStreamAChatReplyToTheClientAsItArrivesAndRecordTheWholeStream() throws Exception {
        // The upstream holds back the stream's last event until the client has seen the first: a proxy that
        // buffered the reply would never let the first through, and the upstream would give up.
        CountDownLatch firstEventSeen = new CountDownLatch(1);
        streamGate = firstEventSeen;
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        Response response = ahc.preparePost(viaProxy("/openai/v1/chat/completions").toString())
                .setHeader("Content-Type", "application/json")
                .setHeader("Authorization", "Bearer " + FakeSecrets.OPENAI_PROJECT)
                .setHeader("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                .setBody(Wire.generateRequest())
                .execute(new AsyncCompletionHandler<Response>() {
                    @Override
                    public State onBodyPartReceived(HttpResponseBodyPart part) throws Exception {
                        received.writeBytes(part.getBodyPartBytes());
                        if (received.toString(StandardCharsets.UTF_8).contains("data: ")) {
                            firstEventSeen.countDown();
                        }
                        return super.onBodyPartReceived(part);
                    }

                    @Override
                    public Response onCompleted(Response response) {
                        return response;
                    }
                }).get(30, TimeUnit.SECONDS);
        streamGate = null;

        String stream = String.join("", Wire.generateStream());
        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(response.getHeader("Content-Type")).isEqualTo("text/event-stream; charset=utf-8");
        assertThat(received.toByteArray()).isEqualTo(stream.getBytes(StandardCharsets.UTF_8));

        CallEvent call = recordedCallWhere("the streamed call's recording",
                c -> "4bf92f3577b34da6a3ce929d0e0e4736".equals(c.runHint()));
        assertThat(call.response().body().isTextual()).isTrue();
        assertThat(call.response().body().textValue()).as("the raw event stream, whole").isEqualTo(stream);
        assertThat(call.request().body().path("stream").asBoolean()).isTrue();
        assertThat(call.request().headers()).containsEntry("authorization", "REDACTED");
    }

    @Test
    void shouldPassABedrockEventStreamThroughAsSentAndRecordItAsServerSentEvents() throws Exception {
        HttpResponse<byte[]> response = jdk.send(HttpRequest.newBuilder(
                viaProxy("/bedrock/model/amazon.nova-lite-v1%3A0/converse-stream"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"q\"}]}]}")).build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).contains("application/vnd.amazon.eventstream");
        assertThat(response.body()).as("the frames, byte for byte")
                .isEqualTo(EventStreamFrames.stream(BEDROCK_FRAMES.toArray(byte[][]::new)));

        CallEvent call = recordedCallTo("/converse-stream");
        assertThat(call.response().body().textValue()).isEqualTo(
                "event: messageStart\ndata: {\"role\":\"assistant\"}\n\n"
                + "event: contentBlockDelta\ndata: " + BEDROCK_DELTA + "\n\n"
                + "event: messageStop\ndata: {\"stopReason\":\"end_turn\"}\n\n"
                + "event: metadata\ndata: " + BEDROCK_METADATA + "\n\n");
        assertThat(call.response().headers()).doesNotContainKey(CallEventFactory.TRUNCATED_HEADER);
    }

    @Test
    void shouldPassAnUpstreamErrorToTheClientExactlyAsSent() throws Exception {
        HttpResponse<String> response = jdk.send(HttpRequest.newBuilder(viaProxy("/openai/v1/responses"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + FakeSecrets.OPENAI_LEGACY)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4o\",\"input\":\"hi\"}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.body()).isEqualTo(Wire.rateLimitError());
        assertThat(response.headers().firstValue("retry-after-ms")).contains("120");
        assertThat(response.headers().firstValue("x-ratelimit-remaining-requests")).contains("0");

        CallEvent call = recordedCallTo("/v1/responses");
        assertThat(call.response().status()).isEqualTo(429);
        assertThat(call.failed()).isTrue();
        assertThat(call.response().body().path("error").path("code").asText()).isEqualTo("rate_limit_exceeded");
    }

    @Test
    void shouldRecordRerankAndSearchCallsFromAsyncHttpClientWithTheRoutesPipeline() throws Exception {
        Response search = ahc.preparePost(viaProxy("/qdrant/collections/reports/points/search").toString())
                .setHeader("Content-Type", "application/json")
                .setHeader("api-key", FakeSecrets.QDRANT)
                .setBody(Wire.qdrantSearchRequest()).execute().get(10, TimeUnit.SECONDS);
        Response rerank = ahc.preparePost(viaProxy("/cohere/v2/rerank").toString())
                .setHeader("Content-Type", "application/json")
                .setHeader("Authorization", "bearer " + FakeSecrets.COHERE)
                .setHeader("x-raglog-pipeline", "ignored-because-the-route-names-one")
                .setBody(Wire.cohereRerankRequest()).execute().get(10, TimeUnit.SECONDS);

        assertThat(search.getResponseBody()).isEqualTo(Wire.qdrantSearchResponse());
        assertThat(rerank.getResponseBody()).isEqualTo(Wire.cohereRerankResponse());

        CallEvent searchCall = recordedCallTo("/collections/reports/points/search");
        assertThat(searchCall.request().headers()).containsEntry("api-key", "REDACTED");
        assertThat(searchCall.request().body()).isEqualTo(Json.MAPPER.readTree(Wire.qdrantSearchRequest()));
        assertThat(searchCall.pipeline()).isEqualTo("support-assistant");

        CallEvent rerankCall = recordedCallTo("/v2/rerank");
        assertThat(rerankCall.pipeline()).isEqualTo("rerank-service");
        assertThat(rerankCall.response().body()).isEqualTo(Json.MAPPER.readTree(Wire.cohereRerankResponse()));
    }

    @Test
    void shouldKeepUpstreamConnectionsAliveAcrossCalls() throws Exception {
        int before = upstream.received().size();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = jdk.send(HttpRequest.newBuilder(viaProxy("/openai/v1/embeddings"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(Wire.embeddingsRequest())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).isEqualTo(Wire.embeddingsResponse());
        }
        Set<InetSocketAddress> connections = upstream.received().subList(before, before + 20).stream()
                .map(FakeUpstream.Received::remote).collect(Collectors.toSet());
        assertThat(connections).as("upstream connections used by 20 sequential calls").hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void shouldLetTheClientNegotiateGzipAndRecordTheDecodedBody() throws Exception {
        HttpResponse<byte[]> response = jdk.send(HttpRequest.newBuilder(viaProxy("/openai/v1/models"))
                .header("Accept-Encoding", "gzip, deflate, br, zstd").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.headers().firstValue("content-encoding")).contains("gzip");
        assertThat(response.body()).isEqualTo(Reply.gzipJson(
                "{\"object\":\"list\",\"data\":[{\"id\":\"gpt-4o\",\"object\":\"model\"}]}").body());
        assertThat(upstream.received().stream().filter(r -> r.pathAndQuery().equals("/v1/models")).findFirst()
                .orElseThrow().header("Accept-Encoding"))
                .as("only codings the recorder can read back are offered upstream").isEqualTo("gzip, deflate");

        CallEvent call = recordedCallTo("/v1/models");
        assertThat(call.request().method()).isEqualTo("GET");
        assertThat(call.request().body()).isNull();
        assertThat(call.response().body().path("data").path(0).path("id").asText()).isEqualTo("gpt-4o");
    }

    @Test
    void shouldPassABodyOverTheRecordingCapWholeAndRecordOnlyItsStart() throws Exception {
        StringBuilder big = new StringBuilder("{\"points\":[");
        for (int i = 0; big.length() < 3 * CAP; i++) {
            big.append(i == 0 ? "" : ",").append("{\"id\":").append(i)
                    .append(",\"payload\":{\"text\":\"passage number ").append(i).append(" of the annual report\"}}");
        }
        String body = big.append("]}").toString();

        HttpResponse<String> response = jdk.send(HttpRequest.newBuilder(viaProxy("/qdrant/collections/reports/points"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(response.body()).path("received").asInt())
                .as("the upstream got the whole body").isEqualTo(body.length());

        CallEvent call = recordedCallTo("/collections/reports/points");
        assertThat(call.request().headers()).containsEntry(CallEventFactory.TRUNCATED_HEADER,
                Integer.toString(body.length()));
        assertThat(call.request().body().isTextual()).isTrue();
        assertThat(call.request().body().textValue()).hasSize(CAP).isEqualTo(body.substring(0, CAP));
        assertThat(call.response().body().path("result").path("status").asText()).isEqualTo("completed");
        assertThat(proxy.metrics().snapshot().truncatedBodies()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void shouldAnswerUnroutedPathsItselfAndRecordNothing() throws Exception {
        int before = log.lines().size();
        HttpResponse<String> response = jdk.send(HttpRequest.newBuilder(viaProxy("/nowhere/v1/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("no route for /nowhere/v1/chat/completions");
        assertThat(proxy.metrics().snapshot().noRoute()).isGreaterThanOrEqualTo(1);
        assertThat(log.to("/nowhere/v1/chat/completions")).isEmpty();
        assertThat(log.lines().size()).isGreaterThanOrEqualTo(before);
    }

    @Test
    void shouldAnswer502AndRecordTheFailureWhenTheUpstreamIsUnreachable() throws Exception {
        HttpResponse<String> response = jdk.send(HttpRequest.newBuilder(viaProxy("/down/v1/embeddings"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Wire.embeddingsRequest())).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).contains("cannot reach http://127.0.0.1:" + closedPort);

        CallEvent call = recordedCallWhere("the 502 recording",
                c -> c.request().url().startsWith("http://127.0.0.1:" + closedPort));
        assertThat(call.response().status()).isEqualTo(502);
        assertThat(call.response().headers()).containsEntry(CallEventFactory.INCOMPLETE_HEADER, "upstream unreachable");
        assertThat(proxy.metrics().snapshot().upstreamFailures()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void shouldTakeThePipelineFromItsHeaderAndTheRunHintFromTraceparent() throws Exception {
        jdk.send(HttpRequest.newBuilder(viaProxy("/openai/v1/embeddings"))
                .header("Content-Type", "application/json")
                .header("x-raglog-pipeline", "billing-bot")
                .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                .POST(HttpRequest.BodyPublishers.ofString(Wire.embeddingsRequest())).build(),
                HttpResponse.BodyHandlers.ofString());

        CallEvent call = recordedCallWhere("the billing-bot call", c -> c.pipeline().equals("billing-bot"));
        assertThat(call.runHint()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(call.request().headers()).containsEntry("traceparent",
                "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    }

    @Test
    void shouldServePrometheusMetricsOnTheAdminPort() throws Exception {
        jdk.send(HttpRequest.newBuilder(viaProxy("/openai/v1/embeddings"))
                .POST(HttpRequest.BodyPublishers.ofString(Wire.embeddingsRequest())).build(),
                HttpResponse.BodyHandlers.ofString());
        Eventually.await("a recorded call", Duration.ofSeconds(15), () -> proxy.metrics().snapshot().recorded() > 0);

        InetSocketAddress admin = proxy.adminAddress();
        HttpResponse<String> metrics = jdk.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + admin.getPort() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("content-type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("text/plain; version=0.0.4"));
        assertThat(metrics.body())
                .containsPattern("(?m)^raglog_proxy_requests_total [1-9][0-9]*$")
                .containsPattern("(?m)^raglog_proxy_recorded_total [1-9][0-9]*$")
                .contains("raglog_proxy_dropped_total{reason=\"queue_full\"} 0")
                .contains("raglog_proxy_added_latency_seconds_bucket{le=\"+Inf\"}")
                .containsPattern("(?m)^raglog_proxy_added_latency_seconds_count [1-9][0-9]*$");
    }
}
