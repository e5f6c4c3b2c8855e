package io.raglog.job;

import java.io.Serializable;
import java.util.List;

/** The Kafka topics raglog reads and writes. */
public record Topics(String calls, String otlp, String runs, String deadLetters) implements Serializable {

    public static final Topics DEFAULTS = new Topics("raglog.calls", "raglog.otlp", "raglog.runs", "raglog.dlq");

    public List<String> all() {
        return List.of(calls, otlp, runs, deadLetters);
    }
}
