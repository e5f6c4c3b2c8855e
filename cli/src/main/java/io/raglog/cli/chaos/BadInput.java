package io.raglog.cli.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Spoils real messages the ways producers and networks spoil them: cut short, fields of the wrong type or missing,
 * bytes that are not UTF-8, text where an object belongs, bodies far larger than any call's, nesting deeper than any
 * API's, NUL bytes. Each spoiled message comes from a simulated call or OTLP request, renamed into a pipeline of its
 * own ({@link #PIPELINE_PREFIX}) with an event id of its own, so it cannot touch a good run.
 *
 * <p>Spoiled envelopes must end in the dead-letter topic; spoiled bodies in a valid envelope may be readable, or not
 * (the adapter of that endpoint decides), but must never fail the job.
 */
public final class BadInput {

    public static final String PIPELINE_PREFIX = "fuzz-";

    /** How a message was spoiled. */
    public enum Kind {
        TRUNCATED(true), WRONG_TYPE(true), MISSING_FIELD(true), INVALID_UTF8(true), NOT_AN_OBJECT(true),
        STRING_FOR_OBJECT(true), DEEP_NESTING(true), NUL_BYTES(true), HUGE_INVALID(true), EMPTY(true),
        /** Valid envelope, the body spoiled: wrong types, text for objects, missing fields. */
        BODY(false),
        /** Valid envelope, a body of hundreds of kilobytes. */
        HUGE_BODY(false),
        /** Valid envelope, a body nested as deep as the decoder allows. */
        DEEP_BODY(false),
        /** Valid envelope, NUL characters (escaped) in its strings. */
        NUL_IN_STRINGS(false);

        private final boolean deadLetter;

        Kind(boolean deadLetter) {
            this.deadLetter = deadLetter;
        }

        /** Whether every message of this kind must become a dead letter. */
        public boolean deadLetter() {
            return deadLetter;
        }
    }

    /** One spoiled message. */
    public record Spoiled(Kind kind, Traffic.Message message, String how) {}

    /** Under the brokers' default message size limit (1 MB), with room for the record's own overhead. */
    public static final int HUGE_BYTES = 900 * 1024;
    /** Deeper than any decoder accepts. */
    public static final int TOO_DEEP = 2_000;
    /** The decoder's limit for a whole message is 200; a body this deep fits in an envelope within it. */
    public static final int DEEP_BUT_VALID = 190;

    /** The kinds that cost little to make and to read, in turn; the huge ones are mixed in more rarely. */
    private static final List<Kind> CHEAP = Arrays.stream(Kind.values())
            .filter(k -> k != Kind.HUGE_INVALID && k != Kind.HUGE_BODY).toList();
    /** One message in this many is a huge one (invalid and valid by turns): enough to try, not to drown a run. */
    private static final int HUGE_EVERY = 50;

    private BadInput() {}

    /**
     * {@code count} spoiled messages from the messages of {@code source}, spoiled at random places; one in
     * {@value #HUGE_EVERY} is huge. The same seed gives the same bytes. Made as they are read, so tens of thousands
     * do not sit in memory at once.
     */
    public static Stream<Spoiled> spoil(Traffic source, int count, long seed) {
        List<Traffic.Message> calls = source.messages().stream().filter(m -> !m.otlp()).toList();
        List<Traffic.Message> traces = source.messages().stream().filter(Traffic.Message::otlp).toList();
        return IntStream.range(0, count).mapToObj(i -> spoilOne(i, calls, traces, new SplittableRandom(seed * 31 + i)));
    }

    private static Spoiled spoilOne(int i, List<Traffic.Message> calls, List<Traffic.Message> traces,
            SplittableRandom rng) {
        Kind kind = i % HUGE_EVERY == HUGE_EVERY - 1 ? (i / HUGE_EVERY % 2 == 0 ? Kind.HUGE_INVALID : Kind.HUGE_BODY)
                : CHEAP.get(i % CHEAP.size());
        boolean otlp = !traces.isEmpty() && (i / CHEAP.size()) % 3 == 2;
        Traffic.Message from = otlp ? traces.get(rng.nextInt(traces.size())) : calls.get(rng.nextInt(calls.size()));
        ObjectNode tree = Json.read(from.value(), ObjectNode.class);
        String how = otlp ? renameTrace(tree, i) : renameCall(tree, i);
        Spoiled s = otlp ? spoilTrace(kind, tree, rng) : spoilCall(kind, tree, rng);
        return new Spoiled(s.kind(), new Traffic.Message(otlp, PIPELINE_PREFIX + from.key(), from.timestampMillis(),
                s.message().value()), how + ": " + s.how());
    }

    private static String renameCall(ObjectNode call, int i) {
        call.put("event_id", "fuzz-" + i);
        call.put("pipeline", PIPELINE_PREFIX + call.path("pipeline").asText());
        return "call " + i + " (" + call.path("request").path("url").asText() + ")";
    }

    private static String renameTrace(ObjectNode request, int i) {
        for (JsonNode rs : request.path("resourceSpans")) {
            for (JsonNode attribute : rs.path("resource").path("attributes")) {
                if ("service.name".equals(attribute.path("key").asText())) {
                    ((ObjectNode) attribute.path("value")).put("stringValue",
                            PIPELINE_PREFIX + attribute.path("value").path("stringValue").asText());
                }
            }
            for (JsonNode ss : rs.path("scopeSpans")) {
                for (JsonNode span : ss.path("spans")) {
                    // a trace of its own: the good run with the same trace id must not get these spans
                    String trace = span.path("traceId").asText();
                    ((ObjectNode) span).put("traceId", String.format("%08x", i) + trace.substring(8));
                }
            }
        }
        return "OTLP request " + i;
    }

    private static Spoiled spoilCall(Kind kind, ObjectNode call, SplittableRandom rng) {
        ObjectNode request = (ObjectNode) call.get("request");
        ObjectNode response = (ObjectNode) call.get("response");
        switch (kind) {
            case WRONG_TYPE -> {
                String[][] fields = {{"event_id", "42"}, {"pipeline", "true"}, {"started_at", "1767225600"},
                    {"request.method", "1"}, {"request.url", "{}"}, {"request.headers", "[\"a\"]"},
                    {"response.status", "\"200\""}, {"source", "7"}, {"schema", "2"}, {"run_hint", "{\"a\":1}"},
                    {"response.headers", "\"x\""}};
                String[] f = fields[rng.nextInt(fields.length)];
                set(call, f[0], Json.read(f[1], JsonNode.class));
                return spoiled(kind, call, f[0] + " = " + f[1]);
            }
            case MISSING_FIELD -> {
                String[] fields = {"schema", "event_id", "pipeline", "started_at", "ended_at", "request", "response",
                    "source", "request.method", "request.url", "response.status"};
                String f = fields[rng.nextInt(fields.length)];
                remove(call, f);
                return spoiled(kind, call, f + " removed");
            }
            case STRING_FOR_OBJECT -> {
                String f = rng.nextBoolean() ? "request" : "response";
                call.put(f, Json.write(call.get(f)));
                return spoiled(kind, call, f + " as a JSON string");
            }
            case BODY -> {
                return spoiled(kind, call, spoilBody(rng.nextBoolean() ? request : response, rng));
            }
            case HUGE_BODY -> {
                request.remove("body");
                // the whole message stays HUGE_BYTES, under the broker's limit, whatever the call around it weighs
                request.set("body", hugeObject(rng, HUGE_BYTES - Json.writeBytes(call).length));
                return spoiled(kind, call, "a request body making the message " + HUGE_BYTES / 1024 + " KiB");
            }
            case DEEP_BODY -> {
                request.set("body", nested(DEEP_BUT_VALID - 3));
                return spoiled(kind, call, "request body nested " + (DEEP_BUT_VALID - 3) + " deep");
            }
            case NUL_IN_STRINGS -> {
                call.put("pipeline", call.path("pipeline").asText() + "\u0000");
                response.put("body", "\u0000\u0000" + Json.write(response.get("body")));
                return spoiled(kind, call, "NUL characters in the pipeline and the response body");
            }
            default -> {
                return bytesLevel(kind, Json.writeBytes(call), rng);
            }
        }
    }

    private static Spoiled spoilTrace(Kind kind, ObjectNode request, SplittableRandom rng) {
        ObjectNode span = (ObjectNode) request.path("resourceSpans").path(0).path("scopeSpans").path(0).path("spans")
                .path(0);
        switch (kind) {
            case WRONG_TYPE -> {
                String[][] fields = {{"traceId", "123"}, {"startTimeUnixNano", "\"yesterday\""}, {"kind", "\"NOPE\""},
                    {"attributes", "\"x\""}, {"status", "[1]"}, {"events", "{}"}};
                String[] f = fields[rng.nextInt(fields.length)];
                span.set(f[0], Json.read(f[1], JsonNode.class));
                return spoiled(kind, request, "span." + f[0] + " = " + f[1]);
            }
            case MISSING_FIELD -> {
                String f = rng.nextBoolean() ? "traceId" : "spanId";
                span.remove(f);
                return spoiled(kind, request, "span." + f + " removed");
            }
            case STRING_FOR_OBJECT -> {
                JsonNode rs = request.path("resourceSpans").path(0);
                ((ObjectNode) rs).put("resource", Json.write(rs.path("resource")));
                return spoiled(kind, request, "resource as a JSON string");
            }
            case BODY -> {
                ArrayNode attributes = span.withArray("attributes");
                if (!attributes.isEmpty()) {
                    ((ObjectNode) attributes.get(rng.nextInt(attributes.size()))).putObject("value")
                            .put("stringValue", "{\"not\": \"a value\"}");
                }
                return spoiled(kind, request, "an attribute's value replaced by text");
            }
            case HUGE_BODY -> {
                ObjectNode value = span.withArray("attributes").addObject().put("key", "input.value")
                        .putObject("value");
                // a whole trace can weigh a lot already: the message stays HUGE_BYTES, under the broker's limit
                value.put("stringValue", hugeText(rng, HUGE_BYTES - Json.writeBytes(request).length));
                return spoiled(kind, request, "an attribute making the message " + HUGE_BYTES / 1024 + " KiB");
            }
            case DEEP_BODY -> {
                span.withArray("attributes").addObject().put("key", "deep").set("value", nestedArrays(40));
                return spoiled(kind, request, "an attribute of arrays nested 40 deep");
            }
            case NUL_IN_STRINGS -> {
                span.put("name", span.path("name").asText() + "\u0000");
                return spoiled(kind, request, "NUL character in the span name");
            }
            default -> {
                return bytesLevel(kind, Json.writeBytes(request), rng);
            }
        }
    }

    /** The kinds that spoil the bytes, whatever they encode. */
    private static Spoiled bytesLevel(Kind kind, byte[] bytes, SplittableRandom rng) {
        switch (kind) {
            case TRUNCATED -> {
                int at = 1 + rng.nextInt(bytes.length - 1);
                return spoiled(kind, Arrays.copyOf(bytes, at), "cut after " + at + " of " + bytes.length + " bytes");
            }
            case INVALID_UTF8 -> {
                int at = rng.nextInt(bytes.length);
                byte[] out = Arrays.copyOf(bytes, bytes.length);
                out[at] = (byte) (rng.nextBoolean() ? 0xFF : 0xC3);
                if (out[at] == (byte) 0xC3 && at + 1 < out.length) {
                    out[at + 1] = 0x28;
                }
                return spoiled(kind, out, "byte " + at + " not UTF-8");
            }
            case NOT_AN_OBJECT -> {
                String[] values = {"[1,2,3]", "\"a string\"", "42", "null", "true", "[" + new String(bytes,
                        StandardCharsets.UTF_8) + "]"};
                String v = values[rng.nextInt(values.length)];
                return spoiled(kind, v.getBytes(StandardCharsets.UTF_8), "a JSON " + v.substring(0, Math.min(8,
                        v.length())) + "...");
            }
            case DEEP_NESTING -> {
                String open = "{\"a\":".repeat(TOO_DEEP);
                String close = "}".repeat(TOO_DEEP);
                String json = new String(bytes, StandardCharsets.UTF_8);
                String deep = json.substring(0, json.length() - 1) + ",\"deep\":" + open + "1" + close + "}";
                return spoiled(kind, deep.getBytes(StandardCharsets.UTF_8), "an object nested " + TOO_DEEP + " deep");
            }
            case NUL_BYTES -> {
                int at = rng.nextInt(bytes.length);
                byte[] out = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, out, 0, at);
                out[at] = 0;
                System.arraycopy(bytes, at, out, at + 1, bytes.length - at);
                return spoiled(kind, out, "a NUL byte at " + at);
            }
            case HUGE_INVALID -> {
                byte[] out = Arrays.copyOf(bytes, HUGE_BYTES);
                for (int i = bytes.length; i < out.length; i++) {
                    out[i] = (byte) (0x80 + rng.nextInt(0x40)); // continuation bytes without a lead: not UTF-8
                }
                return spoiled(kind, out, HUGE_BYTES / 1024 + " KiB ending in bytes that are not UTF-8");
            }
            case EMPTY -> {
                return spoiled(kind, new byte[0], "no bytes");
            }
            default -> throw new IllegalArgumentException(kind + " is not a byte-level kind");
        }
    }

    private static String spoilBody(ObjectNode half, SplittableRandom rng) {
        JsonNode body = half.get("body");
        if (body instanceof ObjectNode object && object.size() > 0) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            String name = names.get(rng.nextInt(names.size()));
            switch (rng.nextInt(3)) {
                case 0 -> {
                    object.put(name, 12345);
                    return "body." + name + " a number";
                }
                case 1 -> {
                    object.put(name, Json.write(object.get(name)));
                    return "body." + name + " as a JSON string";
                }
                default -> {
                    object.remove(name);
                    return "body." + name + " removed";
                }
            }
        }
        half.put("body", "{\"truncated\": ");
        return "body as cut-off text";
    }

    private static ObjectNode hugeObject(SplittableRandom rng, int bytes) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", "gpt-4o-mini");
        body.putArray("messages").addObject().put("role", "user").put("content", hugeText(rng, bytes - 100));
        return body;
    }

    /** About {@code bytes} of plain ASCII words (so as many characters); at least a few KiB. */
    private static String hugeText(SplittableRandom rng, int bytes) {
        String[] words = {"revenue", "quarter", "growth", "the", "of", "cash", "flow", "in", "2023", "Acme"};
        int length = Math.max(4 * 1024, bytes - 16);
        StringBuilder text = new StringBuilder(length + 16);
        while (text.length() < length) {
            text.append(words[rng.nextInt(words.length)]).append(' ');
        }
        return text.toString();
    }

    private static JsonNode nested(int depth) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ObjectNode at = root;
        for (int i = 1; i < depth; i++) {
            at = at.putObject("a");
        }
        at.put("leaf", true);
        return root;
    }

    private static JsonNode nestedArrays(int depth) {
        ObjectNode value = Json.MAPPER.createObjectNode();
        ObjectNode at = value;
        for (int i = 0; i < depth; i++) {
            at = at.putObject("arrayValue").putArray("values").addObject();
        }
        at.put("stringValue", "bottom");
        return value;
    }

    private static void set(ObjectNode root, String path, JsonNode value) {
        int dot = path.indexOf('.');
        if (dot < 0) {
            root.set(path, value);
        } else if (root.get(path.substring(0, dot)) instanceof ObjectNode child) {
            child.set(path.substring(dot + 1), value);
        }
    }

    private static void remove(ObjectNode root, String path) {
        int dot = path.indexOf('.');
        if (dot < 0) {
            root.remove(path);
        } else if (root.get(path.substring(0, dot)) instanceof ObjectNode child) {
            child.remove(path.substring(dot + 1));
        }
    }

    private static Spoiled spoiled(Kind kind, JsonNode tree, String how) {
        return spoiled(kind, Json.writeBytes(tree), how);
    }

    private static Spoiled spoiled(Kind kind, byte[] bytes, String how) {
        return new Spoiled(kind, new Traffic.Message(false, "", 0, bytes), how);
    }
}
