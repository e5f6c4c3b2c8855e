package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.JsonNode;

/** A text/event-stream body as it crosses the wire: events separated by a blank line. */
public final class Sse {

    private final StringBuilder body = new StringBuilder();

    public Sse data(JsonNode json) {
        body.append("data: ").append(Nodes.compact(json)).append("\n\n");
        return this;
    }

    public Sse data(String raw) {
        body.append("data: ").append(raw).append("\n\n");
        return this;
    }

    public Sse event(String name, JsonNode json) {
        body.append("event: ").append(name).append('\n').append("data: ").append(Nodes.compact(json)).append("\n\n");
        return this;
    }

    @Override
    public String toString() {
        return body.toString();
    }
}
