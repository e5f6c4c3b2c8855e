package io.raglog.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.simulator.output.FileSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A simulation written to a directory and read back the way a consumer of the files would read it. */
final class SimulatedLogs {

    /** One OTLP span, flattened: its ids, name and attributes as plain JSON values. */
    record Span(String traceId, String spanId, String parentSpanId, String name, String service,
            Map<String, JsonNode> attributes) {
        String kind() {
            return attributes.get("openinference.span.kind").asText();
        }

        String text(String key) {
            JsonNode v = attributes.get(key);
            return v == null ? null : v.asText();
        }
    }

    final Path dir;
    final SimulationSummary summary;
    final List<JsonNode> calls = new ArrayList<>();
    final List<JsonNode> exportRequests = new ArrayList<>();
    final List<Span> spans = new ArrayList<>();
    final List<Label> labels = new ArrayList<>();
    final Map<String, JsonNode> callsById = new LinkedHashMap<>();

    private SimulatedLogs(Path dir, SimulationSummary summary) {
        this.dir = dir;
        this.summary = summary;
        for (String line : lines(FileSink.CALLS)) {
            JsonNode call = read(line);
            calls.add(call);
            callsById.put(call.get("event_id").asText(), call);
        }
        for (String line : lines(FileSink.TRACES)) {
            JsonNode request = read(line);
            exportRequests.add(request);
            for (JsonNode rs : request.get("resourceSpans")) {
                String service = rs.get("resource").get("attributes").get(0).get("value").get("stringValue").asText();
                for (JsonNode ss : rs.get("scopeSpans")) {
                    for (JsonNode s : ss.get("spans")) {
                        Map<String, JsonNode> attrs = new LinkedHashMap<>();
                        for (JsonNode a : s.get("attributes")) {
                            JsonNode value = a.get("value");
                            attrs.put(a.get("key").asText(), value.elements().next());
                        }
                        spans.add(new Span(s.get("traceId").asText(), s.get("spanId").asText(),
                                s.has("parentSpanId") ? s.get("parentSpanId").asText() : null, s.get("name").asText(),
                                service, attrs));
                    }
                }
            }
        }
        for (String line : lines(FileSink.LABELS)) {
            labels.add(Json.read(line, Label.class));
        }
    }

    static SimulatedLogs simulate(SimulatorOptions options, Path dir) {
        return simulate(new Simulator(options), dir);
    }

    static SimulatedLogs simulate(Simulator simulator, Path dir) {
        SimulationSummary summary;
        try (FileSink sink = new FileSink(dir)) {
            summary = simulator.run(sink);
        }
        return new SimulatedLogs(dir, summary);
    }

    private List<String> lines(String file) {
        Path path = dir.resolve(file);
        if (!Files.exists(path)) {
            return List.of();
        }
        try {
            return Files.readAllLines(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(String line) {
        try {
            return Json.MAPPER.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<JsonNode> callsOfHint(String runHint) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode c : calls) {
            if (runHint.equals(c.get("run_hint").asText(null))) {
                out.add(c);
            }
        }
        return out;
    }

    List<Span> spansOfTrace(String traceId) {
        List<Span> out = new ArrayList<>();
        for (Span s : spans) {
            if (s.traceId().equals(traceId)) {
                out.add(s);
            }
        }
        return out;
    }

    List<Label> labelsOf(String profile) {
        List<Label> out = new ArrayList<>();
        for (Label l : labels) {
            if (l.profile().equals(profile)) {
                out.add(l);
            }
        }
        return out;
    }

    static boolean urlEndsWith(JsonNode call, String suffix) {
        String url = call.get("request").get("url").asText();
        int q = url.indexOf('?');
        return (q < 0 ? url : url.substring(0, q)).endsWith(suffix);
    }

    static boolean ok(JsonNode call) {
        return call.get("response").get("status").asInt() == 200;
    }
}
