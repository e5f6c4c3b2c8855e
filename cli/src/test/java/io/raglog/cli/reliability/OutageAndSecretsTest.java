package io.raglog.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.cli.chaos.Audit;
import io.raglog.cli.chaos.Delivery;
import io.raglog.cli.chaos.Elastic;
import io.raglog.cli.chaos.Kafka;
import io.raglog.cli.chaos.OutageRideThrough;
import io.raglog.cli.chaos.Rig;
import io.raglog.cli.chaos.Traffic;
import io.raglog.job.JobSettings;
import io.raglog.job.Topics;
import io.raglog.llm.LlmTestServer;
import io.raglog.llm.LlmTestServer.Status;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job rides through an Elasticsearch outage and a Kafka broker restart with nothing lost or repeated, and in all
 * that turmoil, with secrets configured and secrets in its input, no secret reaches an output: an LLM API key (which an
 * endpoint's error page echoes back), an Elasticsearch API key, and a bearer token captured in the pipeline's request
 * headers by a proxy that did not redact it. Every topic the job wrote, every Elasticsearch index, every log line and
 * every exception it recovered from is searched for them.
 */
@ExtendWith(SharedServices.class)
class OutageAndSecretsTest {

    private static final String LLM_API_KEY = "sk-raglog-fake-llm-key-7c41d0e9b2a85f36";
    private static final String ES_KEY_ID = "raglog-chaos";
    private static final String ES_KEY_SECRET = "es-fake-secret-d93b7a5e10c4f2";
    private static final String CAPTURED_TOKEN = "tok-captured-header-4b8e1f0a9c27d6";
    private static final int RUNS = 30;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static LlmTestServer llm;
    private static LogCapture logs;
    private static OutageRideThrough.Outcome outcome;
    private static Kafka kafka;
    private static ElasticsearchConnection es;

    @BeforeAll
    static void rideThroughOutagesWithSecretsAround(@InjectMiniCluster MiniCluster cluster) throws Exception {
        llm = LlmTestServer.start();
        // every seventh call: a gateway error page that quotes the request's credentials back
        AtomicInteger calls = new AtomicInteger();
        llm.always(r -> calls.incrementAndGet() % 7 == 0, new Status(502, null,
                "{\"error\":{\"message\":\"upstream refused Authorization: Bearer " + LLM_API_KEY + "\"}}"));
        Rig rig = new Rig(cluster, 1, SharedServices.kafka(), SharedServices.elasticsearch(), SharedServices.work());
        kafka = rig.kafka();
        es = ElasticsearchConnection.builder().setHosts(rig.elasticsearch().url())
                .setApiKey(Base64.getEncoder().encodeToString((ES_KEY_ID + ":" + ES_KEY_SECRET)
                        .getBytes(StandardCharsets.UTF_8)))
                .build();
        Traffic traffic = Traffic.simulate(Traffic.arriving(RUNS, 31, 1.0), Traffic.withRequestHeader("authorization",
                "Bearer " + CAPTURED_TOKEN));
        JobSettings settings = JobSettings.defaults().withChecks(LlmEndpoints.openAi(llm, LLM_API_KEY));

        logs = new LogCapture();
        try {
            outcome = OutageRideThrough.run(rig, new OutageRideThrough.Settings(traffic, spoiledWithCredentials(traffic),
                    1.0, Duration.ofSeconds(1), Duration.ofSeconds(3), 2, settings, es, Duration.ofMinutes(3)));
        } finally {
            logs.close();
            logs.writeTo(Path.of("target", "reliability", "outage-and-secrets-" + System.currentTimeMillis() + ".log"));
        }
        System.out.print(outcome.report().describe());
    }

    @AfterAll
    static void stopServer() {
        if (llm != null) {
            llm.close();
        }
    }

    /** Messages raglog cannot use, each carrying the captured bearer token: they go to the dead-letter topic. */
    private static List<Traffic.Message> spoiledWithCredentials(Traffic traffic) {
        Traffic.Message chat = traffic.messages().stream()
                .filter(m -> !m.otlp() && Json.read(m.value(), CallEvent.class).request().url().endsWith("/chat/completions"))
                .findFirst().orElseThrow();
        // stamped as the traffic's first message: they are sent before it, and a later stamp would move the
        // watermark past the traffic's first calls
        long first = traffic.messages().stream().mapToLong(Traffic.Message::timestampMillis).min().orElseThrow();
        chat = new Traffic.Message(false, chat.key(), first, chat.value());
        ObjectNode call = (ObjectNode) Json.MAPPER.valueToTree(Json.read(chat.value(), CallEvent.class));
        List<Traffic.Message> spoiled = new ArrayList<>();

        ObjectNode truncated = call.deepCopy().put("event_id", "spoiled-truncated");
        byte[] whole = Json.writeBytes(truncated);
        spoiled.add(message(chat, java.util.Arrays.copyOf(whole, whole.length * 2 / 3)));

        ObjectNode unreadable = call.deepCopy().put("event_id", "spoiled-unreadable-body");
        ((ObjectNode) unreadable.get("request")).put("body", "model=gpt-4o&prompt=not+a+chat+request");
        spoiled.add(message(chat, Json.writeBytes(unreadable)));

        ObjectNode binary = call.deepCopy().put("event_id", "spoiled-invalid-utf8");
        ((ObjectNode) binary.get("request")).put("method", "POST\u0001");
        byte[] bytes = Json.writeBytes(binary);
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("\\u0001");
        bytes[at] = (byte) 0xC3;
        bytes[at + 1] = (byte) 0x28;
        spoiled.add(message(chat, bytes));

        ObjectNode otlp = Json.MAPPER.createObjectNode();
        var span = otlp.putArray("resourceSpans").addObject().putArray("scopeSpans").addObject().putArray("spans")
                .addObject().put("traceId", "0af7651916cd43dd8448eb211c80319c").put("spanId", "b7ad6b7169203331")
                .put("name", "POST /v1/chat/completions").put("startTimeUnixNano", "yesterday");
        span.putArray("attributes").addObject().put("key", "http.request.header.authorization")
                .putObject("value").putObject("arrayValue").putArray("values").addObject()
                .put("stringValue", "Bearer " + CAPTURED_TOKEN);
        spoiled.add(new Traffic.Message(true, chat.key(), first, Json.writeBytes(otlp)));
        return spoiled;
    }

    private static Traffic.Message message(Traffic.Message like, byte[] value) {
        return new Traffic.Message(false, like.key(), like.timestampMillis(), value);
    }

    @Test
    void shouldRideThroughTheOutagesLosingAndRepeatingNothing() {
        for (String output : new String[] {Audit.RUNS, Audit.VERDICTS, Audit.FAULTS, Audit.ES_FAULTS,
            Audit.DEAD_LETTERS}) {
            Delivery d = outcome.report().delivery(output);
            assertThat(d.exact()).as(d.toString()).isTrue();
        }
        assertThat(outcome.report().delivery(Audit.DEAD_LETTERS).expected()).isEqualTo(4);
    }

    @Test
    void shouldKeepEverySecretOutOfTopicsIndicesLogsAndExceptions() {
        SecretScan scan = scan();
        Topics topics = outcome.topics();
        for (String topic : List.of(topics.runs(), topics.deadLetters(), topics.verdicts(), topics.faults(),
                topics.faultRates())) {
            kafka.readCommitted(topic).forEach(v -> scan.record("topic " + topic, v));
        }
        Elastic elastic = new Elastic(es);
        for (String index : elastic.indices()) {
            elastic.documents(index).forEach(d -> scan.text("index " + index, d));
        }
        scan.text("the job's log", logs.text());
        outcome.failures().forEach(f -> scan.text("a failure the job recovered from", f));

        assertThat(scan.findings()).isEmpty();
        assertThat(logs.lines()).as("log lines searched").isGreaterThan(100);
        assertThat(scan.scanned()).as("records, documents and texts searched").isGreaterThan(3 * RUNS);
    }

    @Test
    void shouldFindTheCapturedTokenInTheInputItWasPlantedIn() {
        SecretScan scan = scan();
        kafka.readCommitted(outcome.topics().calls()).forEach(v -> scan.record("input", v));
        assertThat(scan.findings()).as("the scan finds a secret where one is").isNotEmpty();
    }

    @Test
    void shouldSendNoCapturedCredentialToTheLlm() {
        SecretScan scan = new SecretScan().secret("captured bearer token", CAPTURED_TOKEN)
                .secret("Elasticsearch API key", ES_KEY_SECRET);
        llm.received().forEach(r -> scan.text("a prompt sent to the LLM", Json.write(r.body())));
        assertThat(llm.requests()).isPositive();
        assertThat(scan.findings()).isEmpty();
    }

    private static SecretScan scan() {
        String esEncoded = Base64.getEncoder().encodeToString((ES_KEY_ID + ":" + ES_KEY_SECRET)
                .getBytes(StandardCharsets.UTF_8));
        return new SecretScan().secret("LLM API key", LLM_API_KEY)
                .secret("Elasticsearch API key", ES_KEY_SECRET)
                .secret("Elasticsearch API key (encoded)", esEncoded)
                .secret("captured bearer token", CAPTURED_TOKEN);
    }
}
