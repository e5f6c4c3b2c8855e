package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.esnode.ElasticsearchProcess;
import io.raglog.job.JobSettings;
import io.raglog.job.TopologySettings;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.Review;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageReview;
import io.raglog.schemas.Verdict;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.FileSink;
import io.raglog.sink.elasticsearch.BulkOperation;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import io.raglog.sink.elasticsearch.ElasticsearchEmitter;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NByteArrayEntity;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code raglog export} on a queue the job really made: simulated calls on the calls topic, replayed through the job
 * into verdicts, the queued ones indexed as its sink indexes them, one of them reviewed. The export's labels and calls
 * must be what {@code train}, {@code evaluate} and {@code thresholds} read: every label joins a run replayed from
 * those calls, labeled as the review or the verdict said.
 */
class ExportCommandTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @TempDir
    Path dir;

    @Test
    void exportedLabelsAndCallsAreWhatTheTrainingCommandsRead() throws Exception {
        CompletableFuture<ElasticsearchProcess> node = CompletableFuture.supplyAsync(() -> {
            try {
                return ElasticsearchProcess.start(dir.resolve("elasticsearch"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Path traffic = dir.resolve("traffic");
        try (FileSink sink = new FileSink(traffic)) {
            new Simulator(SimulatorOptions.of("openai-qdrant-cohere", 24, 5).withFaultRate(0.6)).run(sink);
        }
        Path calls = traffic.resolve(FileSink.CALLS);
        Path runs = dir.resolve("runs.jsonl");
        Path features = dir.resolve("features.jsonl");
        Path verdicts = dir.resolve("verdicts.jsonl");
        ReplayCommand.replay(List.of(calls), List.of(), new ReplayCommand.Outputs(runs, dir.resolve("dlq.jsonl"),
                features, verdicts, JobSettings.defaults()), 2, TopologySettings.DEFAULTS);
        List<Verdict> queued = Files.readAllLines(verdicts).stream().map(l -> Json.read(l, Verdict.class))
                .filter(Verdict::queued).toList();
        assertThat(queued).as("queued runs among 24 with faults planted in 60 %").hasSizeGreaterThan(3);
        Verdict reviewed = queued.stream().filter(Verdict::flagged).findFirst().orElseThrow();
        Review review = rejectingEveryFlag(reviewed);

        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"));
                ElasticsearchProcess elasticsearch = node.join()) {
            kafka.createTopics(List.of("raglog.calls"), 2);
            produce(kafka.bootstrapServers(), calls);
            ElasticsearchConnection connection = ElasticsearchConnection.builder().setHosts(elasticsearch.url()).build();
            IndexTemplates.installAll(connection, Duration.ofSeconds(30));
            index(connection, queued, review);

            Path out = dir.resolve("export");
            int code = new CommandLine(new RaglogCli()).execute("export", "--elasticsearch", elasticsearch.url(),
                    "--kafka", kafka.bootstrapServers(), "--out", out.toString());
            assertThat(code).isZero();

            // the calls are the topic's, each once
            assertThat(eventIds(out.resolve("calls.jsonl"))).isEqualTo(eventIds(calls));
            assertThat(Files.readAllLines(out.resolve("calls.jsonl"))).hasSameSizeAs(Files.readAllLines(calls));
            // a label per queued run: the review's where there is one, the verdict's flags elsewhere
            Map<String, Label> labels = labels(out.resolve("labels.jsonl"));
            assertThat(labels.keySet()).isEqualTo(queued.stream().map(Verdict::runId).collect(Collectors.toSet()));
            assertThat(labels.get(reviewed.runId()).stages()).isEqualTo(review.stages());
            assertThat(labels.get(reviewed.runId()).profile()).isEqualTo(Review.LABEL_PROFILE);
            for (Verdict v : queued) {
                if (v != reviewed) {
                    for (Stage s : Stage.values()) {
                        Integer expected = v.stages().get(s).present() ? (v.stages().get(s).flagged() ? 1 : 0) : null;
                        assertThat(labels.get(v.runId()).stages().get(s)).as("%s %s", v.runId(), s).isEqualTo(expected);
                    }
                    assertThat(labels.get(v.runId()).knowledgeGap()).isEqualTo(v.knowledgeGap().flagged());
                }
            }
            // what train/evaluate/thresholds do with them: every label joins a run and its features
            LabeledDataset.Joined joined = LabeledDataset.join(runs, features, out.resolve("labels.jsonl"), "offline");
            assertThat(joined.unmatchedLabels()).isZero();
            assertThat(joined.runs()).hasSameSizeAs(queued);

            Path reviewedOnly = dir.resolve("reviewed-only");
            assertThat(new CommandLine(new RaglogCli()).execute("export", "--elasticsearch", elasticsearch.url(),
                    "--reviewed-only", "--out", reviewedOnly.toString())).isZero();
            assertThat(labels(reviewedOnly.resolve("labels.jsonl"))).containsOnlyKeys(reviewed.runId());
            assertThat(reviewedOnly.resolve("calls.jsonl")).as("Elasticsearch holds no calls").doesNotExist();
        }
    }

    /** The reviewer finds every flagged stage sound: raglog's false positives on this run. */
    private static Review rejectingEveryFlag(Verdict v) {
        Map<Stage, StageReview> decisions = new EnumMap<>(Stage.class);
        for (Stage s : Stage.values()) {
            if (v.stages().get(s).present()) {
                decisions.put(s, v.stages().get(s).flagged() ? StageReview.REJECTED : StageReview.SOUND);
            }
        }
        StageReview gap = v.knowledgeGap().flagged() ? StageReview.REJECTED : StageReview.SOUND;
        Review review = Review.of(v, decisions, gap, true, "ana", null, Instant.parse("2026-12-02T10:00:00Z"));
        assertThat(review.stages().anyFaulty()).isFalse();
        assertThat(review.stages()).isNotEqualTo(new LabelStages(null, null, null, null, null));
        return review;
    }

    private static void produce(String bootstrap, Path calls) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (String line : Files.readAllLines(calls)) {
                producer.send(new ProducerRecord<>("raglog.calls", Json.read(line, CallEvent.class).runHint(), line));
            }
            producer.flush();
        }
    }

    /** The queue as the job's sink leaves it (its emitter's document and id) and the review as the page leaves it. */
    private static void index(ElasticsearchConnection connection, List<Verdict> queued, Review review)
            throws Exception {
        ElasticsearchEmitter<Verdict> emitter = ElasticsearchEmitter.json(IndexTemplates.FAULTS, Verdict::runId);
        try (RestClient client = connection.openClient()) {
            for (Verdict v : queued) {
                BulkOperation op = emitter.emit(v);
                put(client, op.index(), op.id(), op.document());
            }
            put(client, IndexTemplates.REVIEWS, review.runId(), Json.writeBytes(review));
        }
    }

    private static void put(RestClient client, String index, String id, byte[] json) throws Exception {
        Request request = new Request("PUT", "/" + index + "/_doc/" + URLEncoder.encode(id, StandardCharsets.UTF_8));
        request.addParameter("refresh", "true");
        request.setEntity(new NByteArrayEntity(json, ContentType.APPLICATION_JSON));
        client.performRequest(request);
    }

    private static Map<String, Label> labels(Path file) throws Exception {
        Map<String, Label> out = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            Label label = Json.read(line, Label.class);
            out.put(label.runId(), label);
        }
        return out;
    }

    private static Set<String> eventIds(Path file) throws Exception {
        return Files.readAllLines(file).stream().map(l -> Json.read(l, CallEvent.class).eventId())
                .collect(Collectors.toSet());
    }
}
