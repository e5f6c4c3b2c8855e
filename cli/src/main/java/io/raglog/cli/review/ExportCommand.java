package io.raglog.cli.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.Review;
import io.raglog.schemas.Verdict;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code raglog export}: the debugging queue's labels as the training commands read them. Elasticsearch holds the
 * verdicts and the reviews, not the calls: labels come from there, calls only from the {@code raglog.calls} topic
 * (with {@code --kafka}) or from the files the proxy recorded, which {@code train}, {@code evaluate} and
 * {@code thresholds} take beside the labels. Run ids are derived from the calls, so the two join as they are.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write labels.jsonl (raglog.label/v3) from the reviews, and from the verdicts' flags for the",
            "runs nobody reviewed unless --reviewed-only; with --kafka, calls.jsonl copied from the calls topic.",
            "Elasticsearch holds no calls: without --kafka, pass the recorded call files to train/evaluate."})
public final class ExportCommand implements Callable<Integer> {

    static final String LABELS = "labels.jsonl";
    static final String CALLS = "calls.jsonl";
    private static final int PAGE = 1_000;

    @Mixin
    ElasticsearchClientOptions elasticsearch;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where labels.jsonl (and "
            + "calls.jsonl) are written.")
    Path out;

    @Option(names = "--reviewed-only", description = "Only the runs a person reviewed, labeled as they said.")
    boolean reviewedOnly;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP",
            description = "Also copy every call on the calls topic (read_committed) into calls.jsonl.")
    String kafka;

    @Option(names = "--calls-topic", defaultValue = "raglog.calls",
            description = "The calls topic for --kafka (default: ${DEFAULT-VALUE}).")
    String callsTopic;

    @Option(names = "--faults-index", defaultValue = IndexTemplates.FAULTS,
            description = "The debugging queue's index (default: ${DEFAULT-VALUE}).")
    String faultsIndex;

    @Option(names = "--reviews-index", defaultValue = IndexTemplates.REVIEWS,
            description = "The reviews' index (default: ${DEFAULT-VALUE}).")
    String reviewsIndex;

    /** What an export wrote. */
    record Summary(int fromReviews, int fromVerdicts, long calls, long callsSkipped) {
        String describe(Path out, boolean withCalls) {
            int labels = fromReviews + fromVerdicts;
            return labels + (labels == 1 ? " label (" : " labels (") + fromReviews + " reviewed, " + fromVerdicts
                    + " from the verdicts' flags) -> " + out.resolve(LABELS) + System.lineSeparator()
                    + (withCalls ? calls + " calls (" + callsSkipped + " not raglog.call/v1, skipped) -> "
                            + out.resolve(CALLS)
                    : "no calls: Elasticsearch holds none; give --kafka to copy the calls topic, or pass the call "
                            + "files the proxy recorded to train/evaluate/thresholds with --calls");
        }
    }

    @Override
    public Integer call() throws Exception {
        try (ElasticsearchRest rest = new ElasticsearchRest(elasticsearch.connection(System.getenv()))) {
            Summary summary = export(rest, out, reviewedOnly, faultsIndex, reviewsIndex, kafka, callsTopic);
            System.out.println(summary.describe(out, kafka != null));
        }
        return 0;
    }

    static Summary export(ElasticsearchRest rest, Path out, boolean reviewedOnly, String faultsIndex,
            String reviewsIndex, String kafka, String callsTopic) throws IOException {
        Files.createDirectories(out);
        Map<String, Review> reviews = new HashMap<>();
        everyDocument(rest, reviewsIndex, doc -> {
            Review review = Json.MAPPER.convertValue(doc, Review.class);
            reviews.put(review.runId(), review);
        });
        List<Label> labels = new ArrayList<>();
        int fromVerdicts = 0;
        if (reviewedOnly) {
            reviews.values().forEach(r -> labels.add(r.toLabel()));
        } else {
            List<Verdict> queued = new ArrayList<>();
            everyDocument(rest, faultsIndex, doc -> queued.add(Json.MAPPER.convertValue(doc, Verdict.class)));
            for (Verdict verdict : queued) {
                if (!reviews.containsKey(verdict.runId())) {
                    labels.add(ExportedLabel.of(verdict));
                    fromVerdicts++;
                }
            }
            // a review of a run no longer in the queue (aged out of the index) is still a person's label
            reviews.values().forEach(r -> labels.add(r.toLabel()));
        }
        labels.sort((a, b) -> a.runId().compareTo(b.runId()));
        try (BufferedWriter w = Files.newBufferedWriter(out.resolve(LABELS))) {
            for (Label label : labels) {
                w.write(Json.write(label));
                w.newLine();
            }
        }
        long[] calls = kafka == null ? new long[2] : copyCalls(kafka, callsTopic, out.resolve(CALLS));
        return new Summary(reviews.size(), fromVerdicts, calls[0], calls[1]);
    }

    /**
     * Every document of an index, a page at a time (a scroll: no sort, so it works whatever the index's mapping);
     * nothing when the index does not exist.
     */
    private static void everyDocument(ElasticsearchRest rest, String index, Consumer<JsonNode> each) {
        ObjectNode first = Json.MAPPER.createObjectNode();
        first.put("size", PAGE);
        first.putObject("query").putObject("match_all");
        JsonNode reply = rest.call("POST", "/" + index + "/_search?scroll=1m", Json.write(first));
        String scrollId = null;
        try {
            while (reply != null) {
                scrollId = reply.path("_scroll_id").asText(null);
                JsonNode hits = reply.path("hits").path("hits");
                hits.forEach(hit -> each.accept(hit.path("_source")));
                if (hits.size() == 0 || scrollId == null) {
                    return;
                }
                ObjectNode next = Json.MAPPER.createObjectNode();
                next.put("scroll", "1m");
                next.put("scroll_id", scrollId);
                reply = rest.call("POST", "/_search/scroll", Json.write(next));
            }
        } finally {
            if (scrollId != null) {
                ObjectNode clear = Json.MAPPER.createObjectNode();
                clear.putArray("scroll_id").add(scrollId);
                rest.call("DELETE", "/_search/scroll", Json.write(clear));
            }
        }
    }

    /**
     * Every record of the calls topic up to its end when the copy starts, committed ones only, each written as it
     * came (one compact JSON document a line) when it reads as a CallEvent; returns {written, skipped}.
     */
    static long[] copyCalls(String bootstrap, String topic, Path file) throws IOException {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        long written = 0;
        long skipped = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
                OutputStream w = Files.newOutputStream(file)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue;
                    }
                    byte[] line = callLine(record.value());
                    if (line != null) {
                        w.write(line);
                        w.write('\n');
                        written++;
                    } else {
                        skipped++;
                    }
                }
            }
        }
        return new long[] {written, skipped};
    }

    /** The record as one compact line when it reads as a CallEvent, else null. */
    private static byte[] callLine(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            JsonNode tree = Json.MAPPER.readTree(value);
            return Json.MAPPER.treeToValue(tree, CallEvent.class).eventId() == null ? null : Json.writeBytes(tree);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }
}
