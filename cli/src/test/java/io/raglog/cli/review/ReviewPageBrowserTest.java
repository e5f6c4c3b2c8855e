package io.raglog.cli.review;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.esnode.ElasticsearchProcess;
import io.raglog.schemas.Json;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.Review;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageReview;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The review page end to end in a real browser: a real broker, a real Elasticsearch node holding a small debugging
 * queue (indexed by the job's own emitter), the review server, headless Chromium. A reviewer filters, opens a run,
 * confirms one flagged stage, rejects the other, marks a stage raglog missed and submits; the review must then be on
 * the topic (read_committed) and in the index with exactly those labels.
 *
 * <p>{@code -Draglog.review.screenshot=docs/images/review-page.png} also saves the page as the README shows it.
 */
class ReviewPageBrowserTest {

    private static final String TOPIC = "raglog.reviews";
    private static final Instant NOW = Instant.parse("2026-12-02T09:30:00Z");

    private static Path work;
    private static EmbeddedKafka kafka;
    private static ElasticsearchProcess elasticsearch;
    private static ElasticsearchRest rest;
    private static ReviewOutputs outputs;
    private static ReviewServer server;
    private static ChromeDriver browser;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "review-page-");
        // the node takes longest: it starts beside the broker and the browser
        CompletableFuture<ElasticsearchProcess> node = CompletableFuture.supplyAsync(() -> {
            try {
                return ElasticsearchProcess.start(work.resolve("elasticsearch"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CompletableFuture<ChromeDriver> chromium = CompletableFuture.supplyAsync(HeadlessChromium::start);
        kafka = EmbeddedKafka.start(work.resolve("kafka"));
        kafka.createTopics(List.of(TOPIC), 1);
        elasticsearch = node.join();
        rest = ElasticsearchRest.at(elasticsearch.url());
        IndexTemplates.installAll(ElasticsearchConnection.builder()
                .setHosts(elasticsearch.url()).build(), Duration.ofSeconds(30));
        QueuedRuns.index(rest, QueuedRuns.all());
        outputs = ReviewOutputs.withKafka(rest, IndexTemplates.REVIEWS, kafka.bootstrapServers(), TOPIC);
        server = ReviewServer.start(new InetSocketAddress("127.0.0.1", 0),
                new DebuggingQueue(rest, IndexTemplates.FAULTS, IndexTemplates.REVIEWS), outputs,
                Map.of(QueuedRuns.RETRIEVAL_AND_RERANK, QueuedRuns.retrievalAndRerankRun()),
                Clock.fixed(NOW, ZoneOffset.UTC));
        browser = chromium.join();
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
        if (outputs != null) {
            outputs.close();
        }
        if (rest != null) {
            rest.close();
        }
        if (elasticsearch != null) {
            elasticsearch.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void aReviewerFiltersOpensARunDecidesEachStageAndTheReviewLandsOnTheTopicAndInTheIndex() throws Exception {
        // The waits return as soon as their condition holds: the limit only has to outlast a loaded machine (a cold
        // browser rendering, Elasticsearch answering the queue's searches), so it is generous.
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
        wait.ignoring(StaleElementReferenceException.class);
        browser.get(server.url().toString());
        wait.until(d -> runIds().size() == 3);
        assertThat(browser.findElement(By.id("queue-count")).getText()).isEqualTo("3 runs match");

        // a month back only: the billing run of November drops out
        setValue("filter-from", "2026-11-15T00:00:00");
        browser.findElement(By.id("apply-filters")).click();
        wait.until(d -> runIds().size() == 2);
        assertThat(runIds()).containsExactly(QueuedRuns.RETRIEVAL_AND_RERANK, QueuedRuns.GAP);
        setValue("filter-from", "");

        new Select(browser.findElement(By.id("filter-kind"))).selectByValue("knowledge_gap");
        wait.until(d -> runIds().equals(List.of(QueuedRuns.GAP)));
        new Select(browser.findElement(By.id("filter-kind"))).selectByValue("");
        new Select(browser.findElement(By.id("filter-pipeline"))).selectByValue("support-bot");
        new Select(browser.findElement(By.id("filter-stage"))).selectByValue("retrieve");
        wait.until(d -> runIds().equals(List.of(QueuedRuns.RETRIEVAL_AND_RERANK)));

        rows().get(0).click();
        wait.until(ExpectedConditions.textToBe(By.id("run-question"), "In what country is Normandy located?"));
        assertThat(browser.findElement(By.id("run-answer")).getText()).isEqualTo("Normandy is in Belgium.");
        WebElement retrieve = stage("retrieve");
        assertThat(retrieve.getText()).contains("flagged", "p = 83%", "threshold 50%",
                "no retrieved passage mentions the name 'France'", "raise top_k");
        // the passages as they moved: four retrieved, two kept, the two in the prompt
        List<WebElement> passages = browser.findElements(By.cssSelector("#passages tr.passage"));
        assertThat(passages).hasSize(4);
        assertThat(passages.get(2).getText()).startsWith("#3 #1 #1").contains("Belgium borders France");
        assertThat(passages.get(0).getText()).startsWith("#1 – –");

        WebElement submit = browser.findElement(By.id("submit"));
        assertThat(submit.isEnabled()).as("submit waits for every flagged stage").isFalse();
        decide("retrieve", "confirmed");
        assertThat(submit.isEnabled()).isFalse();
        decide("rerank", "rejected");
        decide("generate", "added");
        assertThat(submit.isEnabled()).isTrue();
        new Select(browser.findElement(By.id("answer-correct"))).selectByValue("false");
        browser.findElement(By.id("reviewer")).sendKeys("ana");
        browser.findElement(By.id("note")).sendKeys("the store has the France passage; the reranker kept Belgium");
        submit.click();
        wait.until(ExpectedConditions.attributeToBe(By.id("submit-status"), "class", "ok"));
        assertThat(browser.findElement(By.id("submit-status")).getText()).startsWith("Review saved to " + TOPIC);
        wait.until(d -> rows().get(0).getText().contains("reviewed"));
        screenshot();

        LabelStages expected = new LabelStages(0, 0, 1, 0, 1);
        Review fromTopic = onlyReviewOnTheTopic();
        assertThat(fromTopic.runId()).isEqualTo(QueuedRuns.RETRIEVAL_AND_RERANK);
        assertThat(fromTopic.stages()).isEqualTo(expected);
        assertThat(fromTopic.decisions()).isEqualTo(new Review.Decisions(StageReview.SOUND, StageReview.SOUND,
                StageReview.CONFIRMED, StageReview.REJECTED, null, StageReview.ADDED, StageReview.SOUND));
        assertThat(fromTopic.knowledgeGap()).isFalse();
        assertThat(fromTopic.answerCorrect()).isFalse();
        assertThat(fromTopic.reviewer()).isEqualTo("ana");
        assertThat(fromTopic.reviewedAt()).isEqualTo(NOW);
        assertThat(fromTopic.verdict().flaggedStages()).containsExactly(Stage.RETRIEVE, Stage.RERANK);
        assertThat(fromTopic.verdict().retrieve().probability()).isEqualTo(0.83);

        JsonNode indexed = rest.call("GET", ElasticsearchRest.document(IndexTemplates.REVIEWS,
                QueuedRuns.RETRIEVAL_AND_RERANK), null);
        Review fromIndex = Json.MAPPER.convertValue(indexed.path("_source"), Review.class);
        assertThat(fromIndex).isEqualTo(fromTopic);
    }

    @Test
    void aDecisionThatDoesNotFitTheVerdictIsRefusedAndNothingIsWritten() throws Exception {
        HttpResponse<String> reply = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        server.url().resolve("api/reviews"))
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of("run_id", QueuedRuns.GENERATOR,
                        "reviewer", "ana", "decisions", Map.of("embed", "confirmed", "retrieve", "sound",
                                "generate", "confirmed", "knowledge_gap", "sound")))))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).isEqualTo(400);
        assertThat(reply.body()).contains("embed: confirmed does not fit a stage raglog did not flag");
        assertThat(rest.call("GET", ElasticsearchRest.document(IndexTemplates.REVIEWS, QueuedRuns.GENERATOR), null))
                .isNull();
    }

    private static List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#queue tr.queue-row"));
    }

    /** Read in one script: the list is redrawn whenever an answer arrives, so its elements go stale. */
    @SuppressWarnings("unchecked")
    private static List<String> runIds() {
        return new ArrayList<>((List<String>) ((JavascriptExecutor) browser).executeScript(
                "return Array.from(document.querySelectorAll('#queue tr.queue-row')).map(r => r.dataset.runId)"));
    }

    private static WebElement stage(String stage) {
        return browser.findElement(By.cssSelector(".stage[data-stage='" + stage + "']"));
    }

    private static void decide(String stage, String decision) {
        stage(stage).findElement(By.cssSelector("input[value='" + decision + "']")).click();
    }

    /** datetime-local inputs take no typing reliably across locales: the value is set as a script would. */
    private static void setValue(String id, String value) {
        ((JavascriptExecutor) browser).executeScript("document.getElementById(arguments[0]).value = arguments[1]",
                id, value);
    }

    /** The whole run in view, top of its pane, for target/ and, when asked, the README's image. */
    private static void screenshot() throws Exception {
        browser.manage().window().setSize(new Dimension(1440, 1480));
        ((JavascriptExecutor) browser).executeScript("document.getElementById('run-pane').scrollTop = 0");
        byte[] png = browser.getScreenshotAs(OutputType.BYTES);
        Files.write(Path.of("target", "review-page.png"), png);
        String also = System.getProperty("raglog.review.screenshot");
        if (also != null && !also.isBlank()) {
            Path file = Path.of(also);
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, png);
        }
    }

    private static Review onlyReviewOnTheTopic() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            // ends at the first record; the limit, generous for a loaded machine, only bounds a failing read
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (records.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            // a transaction's end marker follows its record: the position passes it once the read is committed
            assertThat(consumer.position(partition)).isEqualTo(consumer.endOffsets(List.of(partition)).get(partition));
            assertThat(records).hasSize(1);
            assertThat(records.get(0).key()).isEqualTo(QueuedRuns.RETRIEVAL_AND_RERANK);
            return Json.read(records.get(0).value(), Review.class);
        }
    }
}
