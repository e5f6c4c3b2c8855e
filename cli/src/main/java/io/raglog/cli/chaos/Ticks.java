package io.raglog.cli.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.job.Topics;
import io.raglog.schemas.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

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
            ticks.add(new Kafka.Record(topics.otlp(), p, PIPELINE, at.toEpochMilli(), span(at, p)));
        }
        return ticks;
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

    private static byte[] span(Instant at, int partition) {
        String nanos = Long.toString(at.toEpochMilli() * 1_000_000L);
        byte[] trace = new byte[16];
        trace[0] = 0x7f;
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
