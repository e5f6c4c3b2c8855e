package io.raglog.simulator.output;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code calls.jsonl} (CallEvent v1), {@code traces.otlp.jsonl} (only when a profile emits traces),
 * {@code labels.jsonl} and {@code summary.json} into a directory, one JSON document per line.
 */
public final class FileSink implements SimulationSink {

    public static final String CALLS = "calls.jsonl";
    public static final String TRACES = "traces.otlp.jsonl";
    public static final String LABELS = "labels.jsonl";
    public static final String SUMMARY = "summary.json";

    private static final ObjectWriter LINE = Json.MAPPER.writer().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private final Path dir;
    private final OutputStream calls;
    private final OutputStream labels;
    private OutputStream traces;

    public FileSink(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
            // A previous simulation's traces must not survive next to this one's calls.
            Files.deleteIfExists(dir.resolve(TRACES));
            this.calls = open(CALLS);
            this.labels = open(LABELS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + dir, e);
        }
    }

    private OutputStream open(String name) throws IOException {
        return new BufferedOutputStream(Files.newOutputStream(dir.resolve(name)), 1 << 16);
    }

    @Override
    public void call(CallEvent call) {
        line(calls, call);
    }

    @Override
    public void traces(ObjectNode request) {
        try {
            if (traces == null) {
                traces = open(TRACES);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + TRACES, e);
        }
        line(traces, request);
    }

    @Override
    public void label(Label label) {
        line(labels, label);
    }

    @Override
    public void summary(ObjectNode summary) {
        try {
            Files.writeString(dir.resolve(SUMMARY), Json.MAPPER.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(summary) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + SUMMARY, e);
        }
    }

    private static void line(OutputStream out, Object value) {
        try {
            LINE.writeValue(out, value);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            calls.close();
            labels.close();
            if (traces != null) {
                traces.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
