package io.raglog.bench.review;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.bench.BenchResults;
import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.cli.review.ReviewService;
import io.raglog.esnode.ElasticsearchProcess;
import io.raglog.schemas.Json;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import io.raglog.schemas.VerdictStages;
import io.raglog.sink.elasticsearch.BulkOperation;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import io.raglog.sink.elasticsearch.ElasticsearchEmitter;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NByteArrayEntity;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The review page's figures, on a real broker, a real Elasticsearch node holding a queue of queued verdicts and the
 * system's headless Chromium: how long a submitted review takes to be on the topic (read_committed) and in the index,
 * and how soon the page paints and draws its list. Figures, not goals: the page is used by people, one review at a
 * time.
 */
public final class ReviewBench {

    /**
     * @param queuedRuns verdicts in the queue's index
     * @param roundTrips reviews submitted, one after another
     * @param paints page loads measured (after one discarded warm-up load)
     */
    public record Options(int queuedRuns, int roundTrips, int paints) {
        public static Options quick() {
            return new Options(1_000, 20, 3);
        }

        public static Options full() {
            return new Options(1_000, 100, 10);
        }
    }

    private static final String TOPIC = "raglog.reviews";
    private static final String[] PIPELINES = {"support-bot", "billing-bot", "docs-qa", "helpdesk"};

    private final Options options;
    private final PrintStream log;

    public ReviewBench(Options options, PrintStream log) {
        this.options = options;
        this.log = log;
    }

    public BenchResults run() throws Exception {
        Path work = Files.createTempDirectory("raglog-bench-review-");
        BenchResults r = new BenchResults();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(work.resolve("kafka"));
                ElasticsearchProcess elasticsearch = ElasticsearchProcess.start(work.resolve("elasticsearch"))) {
            kafka.createTopics(List.of(TOPIC), 1);
            ElasticsearchConnection connection = ElasticsearchConnection.builder().setHosts(elasticsearch.url())
                    .build();
            IndexTemplates.installAll(connection, Duration.ofSeconds(60));
            List<Verdict> queue = queue(options.queuedRuns());
            index(connection, queue);
            log.println("review: " + queue.size() + " queued runs indexed; " + options.roundTrips()
                    + " reviews, " + options.paints() + " page loads");
            try (ReviewService service = ReviewService.start(connection, kafka.bootstrapServers(),
                    ReviewService.Names.defaults(), new InetSocketAddress("127.0.0.1", 0), Map.of(),
                    Clock.systemUTC())) {
                roundTrips(service.url(), kafka.bootstrapServers(), connection, queue, r);
                paints(service.url(), r);
            }
            r.put("review_queued_runs", queue.size(), "queued verdicts in raglog-faults for the review figures");
        } finally {
            deleteQuietly(work);
        }
        return r;
    }

    /** Submit → the review on the topic (read_committed) and in the index, one review at a time. */
    private void roundTrips(URI page, String bootstrap, ElasticsearchConnection connection, List<Verdict> queue,
            BenchResults r) throws Exception {
        Map<String, Long> onTopic = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread reader = new Thread(() -> readTopic(bootstrap, onTopic, stop), "bench-review-reader");
        reader.start();
        HttpClient http = HttpClient.newHttpClient();
        double[] submit = new double[options.roundTrips()];
        double[] roundTrip = new double[options.roundTrips()];
        try (RestClient client = connection.openClient()) {
            Thread.sleep(500); // the reader is assigned and at the end before the first review
            for (int i = 0; i < options.roundTrips(); i++) {
                Verdict v = queue.get(i % queue.size());
                long start = System.nanoTime();
                HttpResponse<String> reply = http.send(HttpRequest.newBuilder(page.resolve("api/reviews"))
                        .POST(HttpRequest.BodyPublishers.ofString(Json.write(confirmingEveryFlag(v))))
                        .build(), HttpResponse.BodyHandlers.ofString());
                long replied = System.nanoTime();
                if (reply.statusCode() != 200) {
                    throw new IllegalStateException("review refused: " + reply.body());
                }
                long indexed = awaitIndexed(client, v.runId());
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (!onTopic.containsKey(v.runId() + "#" + (i / queue.size())) && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                Long seen = onTopic.get(v.runId() + "#" + (i / queue.size()));
                if (seen == null) {
                    throw new IllegalStateException("review of " + v.runId() + " not on " + TOPIC + " in 30 s");
                }
                submit[i] = (replied - start) / 1e6;
                roundTrip[i] = (Math.max(indexed, seen) - start) / 1e6;
            }
        } finally {
            stop.set(true);
            reader.join();
        }
        Arrays.sort(submit);
        Arrays.sort(roundTrip);
        r.put("review_submit_p50_ms", submit[submit.length / 2], "review page: POST of a review until its reply "
                + "(committed to Kafka, indexed with refresh=true), median");
        r.put("review_round_trip_p50_ms", roundTrip[roundTrip.length / 2], "review submitted until seen on "
                + TOPIC + " (read_committed) and found in raglog-reviews, median of " + roundTrip.length);
        r.put("review_round_trip_max_ms", roundTrip[roundTrip.length - 1], "the slowest of those round trips");
    }

    /** First contentful paint and the first list drawn, in a fresh page load each, after a warm-up load. */
    private void paints(URI page, BenchResults r) {
        ChromeDriver browser = HeadlessChromium.start();
        try {
            double[] paint = new double[options.paints()];
            double[] drawn = new double[options.paints()];
            for (int i = -1; i < options.paints(); i++) {
                browser.get(page.toString());
                JavascriptExecutor js = browser;
                new WebDriverWait(browser, Duration.ofSeconds(30)).until(d -> (Boolean) js.executeScript(
                        "return performance.getEntriesByName('raglog-queue-drawn').length > 0"));
                if (i < 0) {
                    continue;
                }
                drawn[i] = ((Number) js.executeScript(
                        "return performance.getEntriesByName('raglog-queue-drawn')[0].startTime")).doubleValue();
                paint[i] = ((Number) js.executeScript("const p = performance.getEntriesByName("
                        + "'first-contentful-paint'); return p.length ? p[0].startTime : -1")).doubleValue();
            }
            Arrays.sort(paint);
            Arrays.sort(drawn);
            r.put("review_first_paint_ms", paint[paint.length / 2], "review page: first contentful paint after "
                    + "navigation (headless Chromium), median of " + paint.length);
            r.put("review_queue_drawn_ms", drawn[drawn.length / 2], "review page: navigation until the queue's "
                    + "first list (the newest 200 of the queued runs) is drawn, median of " + drawn.length);
        } finally {
            browser.quit();
        }
    }

    private static Map<String, Object> confirmingEveryFlag(Verdict v) {
        Map<String, String> decisions = new HashMap<>();
        for (Stage s : Stage.values()) {
            StageVerdict sv = v.stages().get(s);
            if (sv.present()) {
                decisions.put(s.id(), sv.flagged() ? "confirmed" : "sound");
            }
        }
        decisions.put(Verdict.KNOWLEDGE_GAP, v.knowledgeGap().flagged() ? "confirmed" : "sound");
        return Map.of("run_id", v.runId(), "reviewer", "bench", "decisions", decisions);
    }

    private static long awaitIndexed(RestClient client, String runId) throws IOException {
        Request get = new Request("GET", "/" + IndexTemplates.REVIEWS + "/_doc/" + runId);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                Response response = client.performRequest(get);
                JsonNode doc = Json.MAPPER.readTree(response.getEntity().getContent());
                if (doc.path("found").asBoolean()) {
                    return System.nanoTime();
                }
            } catch (ResponseException e) {
                if (e.getResponse().getStatusLine().getStatusCode() != 404) {
                    throw e;
                }
            }
        }
        throw new IllegalStateException("review of " + runId + " not in " + IndexTemplates.REVIEWS + " in 30 s");
    }

    /** Each review's arrival, keyed by run id and how many times that run was reviewed before. */
    private static void readTopic(String bootstrap, Map<String, Long> seen, AtomicBoolean stop) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, Integer> times = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            consumer.position(partition);
            while (!stop.get()) {
                consumer.poll(Duration.ofMillis(5)).forEach(record -> {
                    int n = times.merge(record.key(), 1, Integer::sum) - 1;
                    seen.put(record.key() + "#" + n, System.nanoTime());
                });
            }
        }
    }

    /** A queue like the job's: every pipeline, every kind of flag, knowledge gaps, a minute apart. */
    static List<Verdict> queue(int n) {
        List<Verdict> out = new ArrayList<>();
        Instant start = Instant.parse("2026-12-01T00:00:00Z");
        for (int i = 0; i < n; i++) {
            Stage flaggedStage = Stage.values()[i % Stage.values().length];
            boolean gap = i % 7 == 0;
            StageVerdict[] stages = new StageVerdict[Stage.values().length];
            for (Stage s : Stage.values()) {
                boolean flagged = s == flaggedStage && !gap;
                double p = flagged ? 0.7 + (i % 30) / 100.0 : (i % 40) / 100.0;
                stages[s.ordinal()] = new StageVerdict(true, p, 0.5, flagged,
                        flagged ? List.of("the " + s.id() + " stage lost 'fact " + i + "' (rules and LLM judge)")
                                : List.of(),
                        flagged ? "Look at the " + s.id() + " stage's settings first." : null,
                        new StageVerdict.ModelProbabilities(p, p, p));
            }
            out.add(new Verdict(Verdict.SCHEMA_V2, "bench-run-" + i, PIPELINES[i % PIPELINES.length],
                    "Question number " + i + " about the knowledge base?", "Answer number " + i + ".",
                    new VerdictStages(stages[0], stages[1], stages[2], stages[3], stages[4]),
                    gap ? List.of() : List.of(flaggedStage), false,
                    gap ? new KnowledgeGap(true, 0.8, List.of("no passage holds it"), "Add content.", false)
                            : KnowledgeGap.undecided(),
                    new LlmUsage(5, 0, 0, 0.0, false, List.of(), "offline-judge/v1"), "raglog-default@bench",
                    start.plusSeconds(60L * i)));
        }
        return out;
    }

    /** With the job's emitter (its document and id), in _bulk requests of 500, then a refresh. */
    private static void index(ElasticsearchConnection connection, List<Verdict> queue) throws IOException {
        ElasticsearchEmitter<Verdict> emitter = ElasticsearchEmitter.json(IndexTemplates.FAULTS, Verdict::runId);
        try (RestClient client = connection.openClient()) {
            for (int from = 0; from < queue.size(); from += 500) {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                for (Verdict v : queue.subList(from, Math.min(queue.size(), from + 500))) {
                    BulkOperation op = emitter.emit(v);
                    body.writeBytes(("{\"index\":{\"_index\":\"" + op.index() + "\",\"_id\":\"" + op.id() + "\"}}\n")
                            .getBytes(StandardCharsets.UTF_8));
                    body.writeBytes(op.document());
                    body.write('\n');
                }
                Request bulk = new Request("POST", "/_bulk");
                bulk.setEntity(new NByteArrayEntity(body.toByteArray(), ContentType.create("application/x-ndjson")));
                JsonNode reply = Json.MAPPER.readTree(client.performRequest(bulk).getEntity().getContent());
                if (reply.path("errors").asBoolean()) {
                    throw new IllegalStateException("the queue was not indexed: " + reply);
                }
            }
            client.performRequest(new Request("POST", "/" + IndexTemplates.FAULTS + "/_refresh"));
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the OS cleans it eventually
        }
    }
}
