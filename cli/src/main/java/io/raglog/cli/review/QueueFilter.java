package io.raglog.cli.review;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * What part of the debugging queue a reviewer is looking at: one pipeline, one flagged stage, one kind of fault (a
 * stage fault or a knowledge gap), a window of scoring time; every part optional. Read from the page's query string,
 * turned into an Elasticsearch query on the fields the {@code raglog-faults} template maps as keywords and dates.
 *
 * @param kind {@link #STAGE_FAULT} or {@link Verdict#KNOWLEDGE_GAP}, null for both
 * @param size how many runs to list, newest first
 */
record QueueFilter(String pipeline, Stage stage, String kind, Instant from, Instant to, int size) {

    static final String STAGE_FAULT = "stage";
    static final int DEFAULT_SIZE = 200;
    static final int MAX_SIZE = 2_000;

    QueueFilter {
        if (kind != null && !STAGE_FAULT.equals(kind) && !Verdict.KNOWLEDGE_GAP.equals(kind)) {
            throw new IllegalArgumentException("kind must be " + STAGE_FAULT + " or " + Verdict.KNOWLEDGE_GAP
                    + ", was " + kind);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be between 1 and " + MAX_SIZE + ", was " + size);
        }
    }

    static QueueFilter everything() {
        return new QueueFilter(null, null, null, null, null, DEFAULT_SIZE);
    }

    /** From query parameters; empty values mean no filter. */
    static QueueFilter of(Map<String, String> params) {
        String size = blankToNull(params.get("size"));
        try {
            return new QueueFilter(blankToNull(params.get("pipeline")),
                    blankToNull(params.get("stage")) == null ? null : Stage.of(params.get("stage")),
                    blankToNull(params.get("kind")), instant(params.get("from")), instant(params.get("to")),
                    size == null ? DEFAULT_SIZE : Integer.parseInt(size));
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The {@code _search} body: every filter a term or range clause, newest scoring first. */
    String searchBody() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("size", size);
        body.put("track_total_hits", true);
        ArrayNode filters = body.putObject("query").putObject("bool").putArray("filter");
        if (pipeline != null) {
            filters.addObject().putObject("term").put("pipeline", pipeline);
        }
        if (stage != null) {
            filters.addObject().putObject("term").put("flagged_stages", stage.id());
        }
        if (STAGE_FAULT.equals(kind)) {
            filters.addObject().putObject("exists").put("field", "flagged_stages");
        } else if (Verdict.KNOWLEDGE_GAP.equals(kind)) {
            filters.addObject().putObject("term").put("queue_reasons", Verdict.KNOWLEDGE_GAP);
        }
        if (from != null || to != null) {
            ObjectNode range = filters.addObject().putObject("range").putObject("scored_at");
            if (from != null) {
                range.put("gte", from.toString());
            }
            if (to != null) {
                range.put("lt", to.toString());
            }
        }
        ArrayNode sort = body.putArray("sort");
        sort.addObject().putObject("scored_at").put("order", "desc").put("unmapped_type", "date");
        sort.addObject().putObject("run_id").put("order", "asc").put("unmapped_type", "keyword");
        return Json.write(body);
    }

    private static Instant instant(String value) {
        return blankToNull(value) == null ? null : Instant.parse(value.strip());
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
