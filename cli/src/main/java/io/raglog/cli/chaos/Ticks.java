package io.raglog.cli.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.job.Topics;
import io.raglog.schemas.Feedback;
import io.raglog.schemas.FeedbackKind;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;

/**
 * One record per input partition, an hour of event time past the traffic, that a job reading forever needs to close
 * its last runs and windows: what the next hour of traffic would do. They belong to no run (an endpoint no adapter
 * knows, a framework span that is no stage), so they are counted by the job and change no output.
 */
final class Ticks {

    static final String PIPELINE = "raglog-chaos-clock";
    private static final Duration AHEAD = Duration.ofHours(1);

    private Ticks() {}

    static List<Kafka.Record> after(Instant last, Topics topics, int partitions) {
        Instant at = last.plus(AHEAD);
        List<Kafka.Record> ticks = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            ticks.add(new Kafka.Record(topics.calls(), p, PIPELINE, at.toEpochMilli(), call(at, p)));
            ticks.add(new Kafka.Record(topics.otlp(), p, PIPELINE, at.toEpochMilli(), span(at, p, (byte) 0)));
        }
        return ticks;
    }

    /**
     * One record on each partition of the traces and feedback topics that the scenario's own records leave empty, an
     * hour of event time past the traffic, written before the job starts. An empty partition holds the job's watermark
     * back until the source's idleness (30 s) lets it go: the traffic's traces are keyed by service and need not reach
     * every partition, and feedback it may have none, so without these no run closed in the job's first 30 s and the
     * scenario's fault met a job that had not yet written a verdict, once the traffic was all written. A partition the
     * scenario writes to gets none: its own records keep holding the watermark to their pace. Like {@link #after}'s,
     * these belong to no run (a framework span of a trace of its own; a thumbs-up on a run that never comes), and no
     * window closes and no wait ends on them before the scenario does, so they change no output.
     *
     * @param otlpKeys the keys of the scenario's trace records; feedbackKeys those of its feedback records
     */
    static List<Kafka.Record> before(Instant last, Topics topics, int partitions, Collection<String> otlpKeys,
            Collection<String> feedbackKeys) {
        Instant at = last.plus(AHEAD);
        Set<Integer> otlpUsed = partitionsOf(otlpKeys, partitions);
        Set<Integer> feedbackUsed = partitionsOf(feedbackKeys, partitions);
        List<Kafka.Record> ticks = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (!otlpUsed.contains(p)) {
                ticks.add(new Kafka.Record(topics.otlp(), p, PIPELINE, at.toEpochMilli(), span(at, p, (byte) 1)));
            }
            if (!feedbackUsed.contains(p)) {
                Feedback feedback = new Feedback(Feedback.SCHEMA_V1, "tick-" + p + "-" + at.toEpochMilli(), PIPELINE,
                        FeedbackKind.THUMBS, Feedback.THUMBS_UP, null, null, null, at, "tick-" + p, null, null, null,
                        "raglog-chaos");
                ticks.add(new Kafka.Record(topics.feedback(), p, PIPELINE, at.toEpochMilli(),
                        Json.writeBytes(feedback)));
            }
        }
        return ticks;
    }

    /**
     * The partitions records with these keys land in, as the producer's default partitioner places a keyed record;
     * every partition when a key is null (the producer then picks one).
     */
    static Set<Integer> partitionsOf(Collection<String> keys, int partitions) {
        Set<Integer> used = new HashSet<>();
        for (String key : keys) {
            if (key == null) {
                return IntStream.range(0, partitions).boxed().collect(Collectors.toSet());
            }
            // the default partitioner's placement of a keyed record: murmur2 of the key, made positive, modulo the count
            used.add(Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions);
        }
        return used;
    }

    private static byte[] call(Instant at, int partition) {
        ObjectNode call = Json.MAPPER.createObjectNode();
        call.put("schema", "raglog.call/v1").put("event_id", "tick-" + partition + "-" + at.toEpochMilli())
                .put("pipeline", PIPELINE).putNull("run_hint")
                .put("started_at", at.toString()).put("ended_at", at.toString()).put("source", "proxy");
        call.putObject("request").put("method", "GET").put("url", "http://clock.invalid/tick");
        call.putObject("response").put("status", 204);
        return Json.writeBytes(call);
    }

    /** @param marker tells the traces of {@link #before}'s ticks from {@link #after}'s */
    private static byte[] span(Instant at, int partition, byte marker) {
        String nanos = Long.toString(at.toEpochMilli() * 1_000_000L);
        byte[] trace = new byte[16];
        trace[0] = 0x7f;
        trace[1] = marker;
        trace[15] = (byte) (partition + 1);
        ObjectNode request = Json.MAPPER.createObjectNode();
        ObjectNode resourceSpans = request.putArray("resourceSpans").addObject();
        resourceSpans.putObject("resource").putArray("attributes").addObject().put("key", "service.name")
                .putObject("value").put("stringValue", PIPELINE);
        ObjectNode scopeSpans = resourceSpans.putArray("scopeSpans").addObject();
        scopeSpans.putObject("scope").put("name", "raglog-chaos");
        scopeSpans.putArray("spans").addObject()
                .put("traceId", HexFormat.of().formatHex(trace))
                .put("spanId", HexFormat.of().formatHex(new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) (partition + 1)}))
                .put("name", "tick").put("kind", 1)
                .put("startTimeUnixNano", nanos).put("endTimeUnixNano", nanos);
        return Json.writeBytes(request);
    }
}
