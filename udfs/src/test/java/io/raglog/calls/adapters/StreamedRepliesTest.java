package io.raglog.calls.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.Calls;
import io.raglog.calls.ChatDetail;
import io.raglog.schemas.Json;
import io.raglog.schemas.TokenUsage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Streamed replies read chunk by chunk at the parser decode to what they decoded to when every chunk was parsed
 * into a tree first: the same model, output and usage, or the same refusal. The reading as it was is kept here
 * ({@link #chunksAsBefore} and each vendor's loop over the trees) and both are run on random streams made of
 * well-formed chunks, chunks with fields reordered, repeated or of the wrong type, and data that is not JSON.
 */
class StreamedRepliesTest {

    /** JSON roots no vendor sends, and data that is not JSON at all. */
    private static final String[] ODD = {"5", "\"text\"", "[1, {\"choices\": 2}]", "null", "true", "\"bad \\q\"",
        "{\"a\": 1} trailing", "<html>oops", "{\"a\":", "1x", "", "[DONE]",
        " {\"deep\": [[[{\"a\": [1, {\"b\": \"c\"}]}]]]} ",
        "{\"s\": \"\\u00e9\\ud83d\\ude00 \\\" \\\\ \"}"};

    private static final String[] OPENAI_CHAT = {
        "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m1\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"role\":\"assistant\",\"content\":\"He\"},\"logprobs\":null,\"finish_reason\":null}]}",
        "{\"model\":\"m2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"llo\"}}]}",
        "{\"choices\":[{\"delta\":{\"content\":\" wo\"},\"index\":0}]}",
        "{\"choices\":[{\"index\":1,\"delta\":{\"content\":\"X\"}}]}",
        "{\"choices\":[{\"delta\":{\"content\":\"Y\"},\"index\":\"1\"}]}",
        "{\"choices\":[{\"delta\":{\"content\":\"Z\"},\"index\":true}]}",
        "{\"choices\":[{\"delta\":{\"content\":\"Z2\"},\"index\":0.5}]}",
        "{\"choices\":[{\"delta\":{\"content\":\"Z3\"},\"index\":null}]}",
        "{\"choices\":[{\"delta\":{\"content\":\"Z4\"},\"index\":4294967296}]}",
        "{\"choices\":[{\"delta\":{\"content\":\"Z5\"},\"index\":[1]}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\",\"content\":\"b\"}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\",\"content\":5}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"delta\":{\"content\":\"c\"}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"q\"}}],"
            + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"r\"}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"q\"}}],\"choices\":\"nope\"}",
        "{\"choices\":\"nope\"}", "{\"choices\":null}", "{\"choices\":[1,\"x\",[2],null]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":"
            + "\"{\\\"a\\\"\"}}]}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\":1}\"}}]}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":{\"k\":{\"function\":{\"arguments\":\"obj\"}},"
            + "\"j\":3}}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"x\",\"arguments\":7}},"
            + "{\"function\":\"s\"},{\"function\":{\"arguments\":\"y\"},\"function\":{\"arguments\":\"z\"}},5]}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":\"s\"}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":\"text\"}]}",
        "{\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5}}",
        "{\"usage\":{\"prompt_tokens\":\"12\",\"completion_tokens\":null}}",
        "{\"usage\":{\"prompt_tokens\":\"ten\"}}", "{\"usage\":5}", "{\"usage\":{\"prompt_tokens\":1},\"usage\":null}",
        "{\"model\":5}", "{\"model\":\"m3\",\"model\":null}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\u00e9\\ud83d\\ude00 \\\" \\\\\"}}]}",
        "{\"model\":\"m4\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"late\",\"x\":{\"y\":[{\"z\":[1,{}]}]}}}],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4},\"usage\":{\"completion_tokens\":9}}",
    };

    private static final String[] OPENAI_COMPLETIONS = {
        "{\"id\":\"c\",\"model\":\"cm\",\"choices\":[{\"text\":\"A\",\"index\":0}]}",
        "{\"choices\":[{\"text\":\"B\",\"index\":1}]}",
        "{\"choices\":[{\"index\":0,\"text\":\"C\"}],\"model\":\"cm2\"}",
        "{\"choices\":\"bad\"}", "{\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}",
        "{\"usage\":{\"completion_tokens\":\"x\"}}",
    };

    private static final String[] ANTHROPIC = {
        "{\"type\":\"message_start\",\"message\":{\"id\":\"msg\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"claude-x\",\"content\":[],\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":3,"
            + "\"output_tokens\":1}}}",
        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
        "{\"type\":\"ping\"}",
        "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}",
        "{\"delta\":{\"text\":\" there\",\"type\":\"text_delta\"},\"type\":\"content_block_delta\"}",
        "{\"delta\":{\"type\":\"text_delta\",\"text\":\" untyped\"}}",
        "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}",
        "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":5}}",
        "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"a\",\"text\":\"b\"}}",
        "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"a\",\"type\":\"x\"}}",
        "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"},"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\"c\"}}",
        "{\"type\":\"content_block_delta\",\"delta\":\"str\"}",
        "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"t\"},\"type\":\"ping\"}",
        "{\"type\":null,\"delta\":{\"type\":\"text_delta\",\"text\":\"null type\"}}",
        "{\"type\":5,\"delta\":{\"type\":\"text_delta\",\"text\":\"number type\"}}",
        "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"type\":\"text_delta\",\"text\":\"zz\"},"
            + "\"usage\":{\"output_tokens\":15}}",
        "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\","
            + "\"partial_json\":\"{\\\"query\\\": \\\"tides\"}}",
        "{\"delta\":{\"partial_json\":\" 2023\\\"}\",\"type\":\"input_json_delta\"},\"type\":\"content_block_delta\"}",
        "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"x\","
            + "\"type\":\"text_delta\"}}",
        "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":20}}",
        "{\"delta\":{\"stop_reason\":\"tool_use\"},\"type\":\"ping\"}",
        "{\"type\":\"message_delta\",\"usage\":{\"output_tokens\":\"x\"}}",
        "{\"type\":\"message_delta\",\"usage\":null}",
        "{\"type\":\"message_start\",\"message\":null}",
        "{\"type\":\"message_start\",\"message\":{\"model\":7,\"usage\":{\"input_tokens\":\"4\"}}}",
        "{\"message\":{\"model\":\"claude-y\"},\"type\":\"message_start\"}", "{\"type\":\"message_start\"}",
        "{\"type\":\"message_stop\"}",
        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
    };

    private static final String[] RESPONSES = {
        "{\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"model\":\"gpt-r1\",\"output\":[]}}",
        "{\"type\":\"response.in_progress\",\"response\":{\"model\":\"gpt-r2\"}}",
        "{\"type\":\"response.output_text.delta\",\"delta\":\"Hel\"}",
        "{\"delta\":\"lo\",\"type\":\"response.output_text.delta\"}",
        "{\"type\":\"response.output_text.delta\",\"delta\":5}",
        "{\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"delta\":\"b\"}",
        "{\"type\":\"response.output_text.delta\",\"delta\":\"x\",\"type\":\"other\"}", "{\"delta\":\"untyped\"}",
        "{\"type\":\"response.completed\",\"response\":{\"model\":\"gpt-r3\",\"output\":[{\"type\":\"message\","
            + "\"content\":[{\"type\":\"output_text\",\"text\":\"Full\"}]}],\"usage\":{\"input_tokens\":7,"
            + "\"output_tokens\":2}}}",
        "{\"type\":\"response.incomplete\",\"response\":{\"usage\":{\"input_tokens\":\"bad\"}}}",
        "{\"type\":\"response.completed\"}", "{\"type\":\"response.completed\",\"response\":null}",
        "{\"type\":\"response.created\",\"response\":{\"model\":null}}",
        "{\"type\":\"response.created\",\"response\":\"s\"}",
        "{\"response\":{\"model\":\"gpt-r4\"},\"type\":\"response.created\"}",
    };

    private static final String[] LINE_ENDS = {"\n", "\r\n", "\r"};

    @Test
    void shouldReadOpenAiChatStreamsAsBefore() {
        readAsBefore(new OpenAiChatAdapter(),
                "{'model':'asked','stream':true,'messages':[{'role':'user','content':'hi'}]}", OPENAI_CHAT,
                new String[] {null}, StreamedRepliesTest::openAiChatAsBefore);
    }

    @Test
    void shouldReadOpenAiCompletionsStreamsAsBefore() {
        readAsBefore(new OpenAiCompletionsAdapter(), "{'model':'asked','stream':true,'prompt':'hi'}",
                OPENAI_COMPLETIONS, new String[] {null}, StreamedRepliesTest::completionsAsBefore);
    }

    @Test
    void shouldReadAnthropicStreamsAsBefore() {
        readAsBefore(new AnthropicMessagesAdapter(),
                "{'model':'asked','stream':true,'max_tokens':5,'messages':[{'role':'user','content':'hi'}]}", ANTHROPIC,
                new String[] {null, "message_start", "content_block_delta", "message_delta", "error", "ping"},
                StreamedRepliesTest::anthropicAsBefore);
    }

    @Test
    void shouldReadResponsesStreamsAsBefore() {
        readAsBefore(new OpenAiResponsesAdapter(), "{'model':'asked','stream':true,'input':'hi'}", RESPONSES,
                new String[] {null, "response.created", "response.output_text.delta", "response.completed"},
                StreamedRepliesTest::responsesAsBefore);
    }

    @Test
    void shouldAddUpAnOpenAiChatStreamWithCrLfLineEndsAndUsage() throws AdapterException {
        ChatDetail d = read(new OpenAiChatAdapter(), "{'model':'asked','stream':true,'messages':[]}", String.join(
                "\r\n", "data: {\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}",
                "", ": a comment", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Paris\"}}]}", "",
                "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"Rome\"}}]}", "",
                "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1}}", "",
                "data: [DONE]", "", ""));

        assertThat(d.model()).isEqualTo("gpt-4o");
        assertThat(d.output()).isEqualTo("Paris");
        assertThat(d.usage()).isEqualTo(new TokenUsage(9, 1));
        assertThat(d.streamed()).isTrue();
    }

    @Test
    void shouldTakeAToolCallsArgumentsWhenTheStreamHasNoContent() throws AdapterException {
        ChatDetail d = read(new OpenAiChatAdapter(), "{'model':'asked','stream':true,'messages':[]}",
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":"
                + "{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\"}}]}}]}\n\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":"
                + "{\"arguments\":\"\\\"tides\\\"}\"}}]}}]}\n\ndata: [DONE]\n\n");

        assertThat(d.model()).isEqualTo("asked");
        assertThat(d.output()).isEqualTo("{\"q\":\"tides\"}");
    }

    @Test
    void shouldAddUpAnAnthropicStreamCutBeforeItsLastBlankLine() throws AdapterException {
        ChatDetail d = read(new AnthropicMessagesAdapter(), "{'model':'asked','stream':true,'messages':[]}",
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-3\","
                + "\"usage\":{\"input_tokens\":20,\"cache_read_input_tokens\":5,\"output_tokens\":1}}}\n\n"
                + "event: ping\ndata: {\"type\":\"ping\"}\n\n"
                + "event: content_block_delta\ndata: {\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n"
                + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":"
                + "{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\n"
                + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":\"lo\"}}\n\n"
                + "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":2}}");

        assertThat(d.model()).isEqualTo("claude-3");
        assertThat(d.output()).isEqualTo("Hello");
        assertThat(d.usage()).isEqualTo(new TokenUsage(25, 2));
    }

    @Test
    void shouldKeepWhatAnAnthropicStreamSentBeforeAnError() throws AdapterException {
        ChatDetail d = read(new AnthropicMessagesAdapter(), "{'model':'asked','stream':true,'messages':[]}",
                "data: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"Par\"}}\n\n"
                + "event: error\ndata: {\"error\":{\"type\":\"overloaded_error\"}}\n\n"
                + "data: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"is\"}}\n\n");

        assertThat(d.output()).isEqualTo("Par");
    }

    @Test
    void shouldAddUpAResponsesStreamWithCrLineEndsAndDataOverTwoLines() throws AdapterException {
        ChatDetail d = read(new OpenAiResponsesAdapter(), "{'model':'asked','stream':true,'input':'hi'}",
                "event: response.created\rdata: {\"response\":{\"model\":\"gpt-4.1\",\"output\":[]}}\r\r"
                + "event: response.output_text.delta\rdata: {\"delta\":\"Par\",\r"
                + "data: \"type\":\"response.output_text.delta\"}\r\r"
                + "data: {\"type\":\"response.output_text.delta\",\"delta\":\"is\"}\r\r"
                + "data: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":4,"
                + "\"output_tokens\":2}}}\r\r");

        assertThat(d.model()).isEqualTo("gpt-4.1");
        assertThat(d.output()).isEqualTo("Paris");
        assertThat(d.usage()).isEqualTo(new TokenUsage(4, 2));
    }

    @Test
    void shouldReadChunksAProxyRecordedParsed() throws AdapterException {
        JsonNode chunks = Calls.json("[{'model':'gpt-4o','choices':[{'index':0,'delta':{'content':'Par'}}]},"
                + "{'choices':[{'index':0,'delta':{'content':'is'}}]}]");
        ChatDetail d = (ChatDetail) new OpenAiChatAdapter().read(Calls.call("POST", "http://llm/v1/chat/completions",
                Calls.json("{'model':'asked','stream':true,'messages':[]}"), 200, chunks));

        assertThat(d.model()).isEqualTo("gpt-4o");
        assertThat(d.output()).isEqualTo("Paris");
    }

    @Test
    void shouldRefuseAStreamForDataThatIsNotJsonEvenAfterAChunkOfTheWrongShape() {
        assertThatThrownBy(() -> read(new OpenAiChatAdapter(), "{'model':'asked','stream':true,'messages':[]}",
                "data: {\"choices\":\"none\"}\n\ndata: [DONE]\n\ndata: <html><body>502 Bad Gateway from the upstream "
                + "load balancer</body></html>\n\n"))
                .isInstanceOf(AdapterException.class).hasMessage("stream event 3 data is not JSON: "
                        + "<html><body>502 Bad Gateway from the upstream load balancer<...");
        assertThatThrownBy(() -> read(new OpenAiChatAdapter(), "{'model':'asked','stream':true,'messages':[]}",
                "data: {\"choices\":\"none\"}\n\ndata: [DONE]\n\n"))
                .isInstanceOf(AdapterException.class).hasMessage("'choices' is text \"none\", expected an array");
    }

    private static ChatDetail read(ApiAdapter adapter, String request, String stream) throws AdapterException {
        return (ChatDetail) adapter.read(Calls.postWithTextReply("http://llm/v1/x", request, 200, stream));
    }

    /** What a reply decoded to: its model, output and usage, or the refusal's words. */
    private record Outcome(String model, String output, TokenUsage usage, String refusal) {

        static Outcome of(String model, String output, TokenUsage usage) {
            return new Outcome(model, output, usage, null);
        }
    }

    @FunctionalInterface
    private interface ReadingAsBefore {
        Outcome read(List<JsonNode> chunks) throws AdapterException;
    }

    private static void readAsBefore(ApiAdapter adapter, String request, String[] chunks, String[] eventNames,
            ReadingAsBefore before) {
        SplittableRandom random = new SplittableRandom(11);
        int refused = 0;
        for (int i = 0; i < 4_000; i++) {
            String stream = randomStream(random, chunks, eventNames);
            Outcome expected = outcomeAsBefore(TextNode.valueOf(stream), before);
            assertThat(outcome(adapter, request, TextNode.valueOf(stream))).as("[%s]", stream).isEqualTo(expected);
            refused += expected.refusal() == null ? 0 : 1;
            ArrayNode recordedParsed = recordedParsed(stream);
            if (recordedParsed != null) {
                assertThat(outcome(adapter, request, recordedParsed)).as("%s", recordedParsed)
                        .isEqualTo(outcomeAsBefore(recordedParsed, before));
            }
        }
        assertThat(refused).as("streams refused").isBetween(400, 3_600);
    }

    private static Outcome outcome(ApiAdapter adapter, String request, JsonNode reply) {
        try {
            ChatDetail d = (ChatDetail) adapter.read(Calls.call("POST", "http://llm/v1/x", Calls.json(request), 200,
                    reply));
            return Outcome.of(d.model(), d.output(), d.usage());
        } catch (AdapterException e) {
            return new Outcome(null, null, null, e.getMessage());
        }
    }

    private static Outcome outcomeAsBefore(JsonNode reply, ReadingAsBefore before) {
        try {
            return before.read(chunksAsBefore(reply));
        } catch (AdapterException e) {
            return new Outcome(null, null, null, e.getMessage());
        }
    }

    /** A stream of random events, some named, some data split over lines, comments between, cut or not. */
    private static String randomStream(SplittableRandom random, String[] chunks, String[] eventNames) {
        StringBuilder raw = new StringBuilder();
        int events = random.nextInt(1, 9);
        for (int e = 0; e < events; e++) {
            String end = LINE_ENDS[random.nextInt(LINE_ENDS.length)];
            String name = eventNames[random.nextInt(eventNames.length)];
            String data = random.nextInt(8) == 0 ? ODD[random.nextInt(ODD.length)]
                    : chunks[random.nextInt(chunks.length)];
            if (e > 0 && random.nextInt(6) == 0) {
                raw.append(": keep-alive").append(end);
            }
            if (name != null) {
                raw.append("event: ").append(name).append(end);
            }
            if (random.nextInt(10) == 0 && data.length() > 2) {
                // one event's data over two lines: joined by a line break, which JSON may have between tokens
                int cut = data.indexOf(',') > 0 ? data.indexOf(',') + 1 : random.nextInt(1, data.length());
                raw.append("data: ").append(data, 0, cut).append(end).append("data:").append(data.substring(cut));
            } else {
                raw.append(random.nextBoolean() ? "data: " : "data:").append(data);
            }
            raw.append(end);
            if (e < events - 1 || random.nextInt(4) > 0) {
                raw.append(end);
            }
        }
        if (random.nextInt(3) == 0) {
            raw.append("data: [DONE]").append(LINE_ENDS[random.nextInt(LINE_ENDS.length)]).append('\n');
        }
        return raw.toString();
    }

    /** The stream's chunks as a proxy that parses them records them, or null when one is not JSON. */
    private static ArrayNode recordedParsed(String stream) {
        try {
            ArrayNode array = Json.MAPPER.createArrayNode();
            chunksAsBefore(TextNode.valueOf(stream)).forEach(array::add);
            return array;
        } catch (AdapterException notJson) {
            return null;
        }
    }

    /** The JSON payloads of a reply as they were read, each into a tree. */
    private static List<JsonNode> chunksAsBefore(JsonNode body) throws AdapterException {
        List<JsonNode> chunks = new ArrayList<>();
        if (body.isArray()) {
            body.forEach(chunks::add);
            return chunks;
        }
        int n = 0;
        for (SseTest.Event e : SseTest.parsedAsBefore(body.textValue())) {
            n++;
            String data = e.data().strip();
            if (data.isEmpty() || Sse.DONE.equals(data)) {
                continue;
            }
            try {
                JsonNode node = Json.MAPPER.readTree(data);
                if (e.event() != null && node.isObject() && !node.has("type")) {
                    ((ObjectNode) node).put("type", e.event());
                }
                chunks.add(node);
            } catch (IOException notJson) {
                throw new AdapterException("stream event " + n + " data is not JSON: "
                        + (data.length() > 60 ? data.substring(0, 60) + "..." : data));
            }
        }
        return chunks;
    }

    private static Outcome openAiChatAsBefore(List<JsonNode> chunks) throws AdapterException {
        StringBuilder content = new StringBuilder();
        StringBuilder toolArgs = new StringBuilder();
        TokenUsage usage = TokenUsage.UNKNOWN;
        String streamModel = null;
        for (JsonNode chunk : chunks) {
            if (streamModel == null) {
                streamModel = Bodies.label(chunk, "model");
            }
            JsonNode choices = Bodies.array(chunk, "choices");
            if (choices != null) {
                for (JsonNode choice : choices) {
                    if (choice.path("index").asInt(0) != 0) {
                        continue;
                    }
                    JsonNode delta = choice.path("delta");
                    JsonNode text = delta.get("content");
                    if (text != null && text.isTextual()) {
                        content.append(text.textValue());
                    }
                    for (JsonNode call : delta.path("tool_calls")) {
                        JsonNode args = call.path("function").path("arguments");
                        if (args.isTextual()) {
                            toolArgs.append(args.textValue());
                        }
                    }
                }
            }
            JsonNode u = chunk.get("usage");
            if (u != null && u.isObject()) {
                usage = Usage.openAi(u);
            }
        }
        String output = content.length() > 0 ? content.toString() : toolArgs.toString();
        return Outcome.of(streamModel != null ? streamModel : "asked", output, usage);
    }

    private static Outcome completionsAsBefore(List<JsonNode> parts) throws AdapterException {
        StringBuilder output = new StringBuilder();
        TokenUsage usage = TokenUsage.UNKNOWN;
        String replyModel = null;
        for (JsonNode part : parts) {
            if (replyModel == null) {
                replyModel = Bodies.label(part, "model");
            }
            JsonNode choices = Bodies.array(part, "choices");
            if (choices != null) {
                for (JsonNode choice : choices) {
                    if (choice.path("index").asInt(0) == 0 && choice.path("text").isTextual()) {
                        output.append(choice.get("text").textValue());
                    }
                }
            }
            if (part.path("usage").isObject()) {
                usage = Usage.openAi(part.get("usage"));
            }
        }
        return Outcome.of(replyModel != null ? replyModel : "asked", output.toString(), usage);
    }

    private static Outcome anthropicAsBefore(List<JsonNode> events) throws AdapterException {
        String model = "asked";
        StringBuilder text = new StringBuilder();
        StringBuilder toolInput = new StringBuilder();
        boolean stoppedForTool = false;
        TokenUsage usage = TokenUsage.UNKNOWN;
        for (JsonNode event : events) {
            String type = Bodies.label(event, "type");
            if ("message_start".equals(type)) {
                JsonNode message = event.path("message");
                model = message.path("model").isTextual() ? message.get("model").textValue() : model;
                usage = AnthropicMessagesAdapter.usage(message.get("usage"), null);
            } else if ("content_block_delta".equals(type)) {
                JsonNode delta = event.path("delta");
                if ("text_delta".equals(delta.path("type").asText()) && delta.path("text").isTextual()) {
                    text.append(delta.get("text").textValue());
                }
                if ("input_json_delta".equals(delta.path("type").asText())
                        && delta.path("partial_json").isTextual()) {
                    toolInput.append(delta.get("partial_json").textValue());
                }
            } else if ("message_delta".equals(type)) {
                usage = AnthropicMessagesAdapter.usage(event.get("usage"), usage);
                stoppedForTool |= "tool_use".equals(event.path("delta").path("stop_reason").asText(null));
            } else if ("error".equals(type)) {
                break;
            }
        }
        String reply = stoppedForTool && !toolInput.toString().isBlank() ? toolInput.toString() : text.toString();
        return Outcome.of(model, reply, usage);
    }

    private static Outcome responsesAsBefore(List<JsonNode> events) throws AdapterException {
        String model = "asked";
        StringBuilder deltas = new StringBuilder();
        JsonNode completed = null;
        for (JsonNode event : events) {
            String type = Bodies.label(event, "type");
            if ("response.output_text.delta".equals(type) && event.path("delta").isTextual()) {
                deltas.append(event.get("delta").textValue());
            } else if ("response.completed".equals(type) || "response.incomplete".equals(type)) {
                completed = event.get("response");
            } else if (completed == null && "response.created".equals(type)) {
                String created = Bodies.label(event.get("response"), "model");
                model = created != null ? created : model;
            }
        }
        String output = deltas.toString();
        TokenUsage usage = TokenUsage.UNKNOWN;
        if (completed != null && completed.isObject()) {
            String completedModel = Bodies.label(completed, "model");
            model = completedModel != null ? completedModel : model;
            usage = Usage.of(completed.get("usage"), "input_tokens", "output_tokens");
            if (output.isEmpty()) {
                output = outputText(completed);
            }
        }
        return Outcome.of(model, output, usage);
    }

    private static String outputText(JsonNode response) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode item : response.path("output")) {
            if (!"message".equals(item.path("type").asText("message"))) {
                continue;
            }
            for (JsonNode part : item.path("content")) {
                if ("output_text".equals(part.path("type").asText()) && part.path("text").isTextual()) {
                    sb.append(part.get("text").textValue());
                }
            }
        }
        if (sb.length() == 0 && response.path("output_text").isTextual()) {
            sb.append(response.get("output_text").textValue());
        }
        return sb.toString();
    }
}
