package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.checks.RunTexts;
import io.raglog.schemas.EmbedStage;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.RerankStage;
import io.raglog.schemas.RetrieveStage;
import io.raglog.schemas.RewriteStage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.TokenUsage;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The judge's requests are byte for byte what they were when the run's data was built as a JSON tree, written to a
 * string, joined to its markers, and each vendor's body was a tree too: that way is kept here as the reference. Runs
 * are random in every way the prompt reads them: stages present or not, passages over the caps, null ids, texts and
 * passages, and texts with quotes, line breaks, controls, non-Latin letters, emoji and halves of surrogate pairs. The
 * run's checks are asked together, so the texts they share are escaped once and sent as shared parts.
 */
class LlmRequestBytesTest {

    private static final int RUNS = 600;

    @Test
    void shouldBuildTheSamePromptsAndBodiesAsTheTreesDid() {
        Random random = new Random(11);
        int shared = 0;
        for (String model : List.of("gpt-4o-mini", "m\"odel \\ é 漢 😀")) {
            try (OpenAiProvider openAi = new OpenAiProvider(settings("openai", model));
                    AnthropicProvider anthropic = new AnthropicProvider(settings("anthropic", model));
                    BedrockProvider bedrock = new BedrockProvider(settings("bedrock", model))) {
                for (int i = 0; i < RUNS; i++) {
                    int maxOutputTokens = 1 + random.nextInt(4_000);
                    Prompts prompts = new Prompts(maxOutputTokens);
                    Run run = run(random, i);
                    // the run's checks share their long texts, as the judge asks them
                    Prompts.RunPrompts runPrompts = prompts.forRun(run);
                    for (LlmCheck check : LlmCheck.values()) {
                        Expected expected;
                        try {
                            expected = reference(check, run, maxOutputTokens);
                        } catch (RuntimeException e) {
                            assertThatThrownBy(() -> runPrompts.request(check)).isInstanceOf(e.getClass());
                            continue;
                        }
                        ChatRequest request = runPrompts.request(check);
                        shared += request.escapedUser().partCount() > 1 ? 1 : 0;
                        assertThat(new Expected(request.promptId(), request.system(), request.user(),
                                request.maxOutputTokens())).as("run %d %s", i, check).isEqualTo(expected);
                        assertThat(joined(openAi.requestBody(request))).as("run %d %s openai", i, check)
                                .isEqualTo(openAiBody(model, expected));
                        assertThat(joined(anthropic.requestBody(request))).as("run %d %s anthropic", i, check)
                                .isEqualTo(anthropicBody(model, expected));
                        assertThat(joined(bedrock.requestBody(request))).as("run %d %s bedrock", i, check)
                                .isEqualTo(converseBody(expected));
                    }
                }
            }
        }
        assertThat(shared).as("requests sending shared texts").isGreaterThan(RUNS);
    }

    /** The parts of a body as they are sent, one after the other. */
    private static byte[] joined(List<byte[]> parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static LlmSettings settings(String provider, String model) {
        return LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, provider, LlmSettings.MODEL, model,
                LlmSettings.API_KEY, "key-1", LlmSettings.REGION, "us-east-1"));
    }

    // ---- the reference: the former way of building a request -------------------------------------------------

    /** A request as it was: all strings. */
    private record Expected(String promptId, String system, String user, int maxOutputTokens) {}

    private static Expected reference(LlmCheck check, Run run, int maxOutputTokens) {
        String user = fenced(run.runId() + "/" + check.id(), data(check, run));
        return new Expected(check.promptFile().replace(".txt", ""), system(check), user, maxOutputTokens);
    }

    private static String system(LlmCheck check) {
        try (var in = LlmRequestBytesTest.class.getResourceAsStream("/prompts/" + check.promptFile())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static ObjectNode data(LlmCheck check, Run run) {
        ObjectNode data = Json.MAPPER.createObjectNode();
        data.put("question", cut(RunTexts.question(run), Prompts.MAX_TEXT_CHARS));
        switch (check) {
            case REWRITE -> {
                ArrayNode queries = data.putArray("rewritten_queries");
                RunTexts.rewrites(run).forEach(q -> queries.add(cut(q, Prompts.MAX_TEXT_CHARS)));
            }
            case RETRIEVAL -> passages(data.putArray("passages"), RunTexts.retrieved(run).isEmpty()
                    ? run.stages().rerank().input() : RunTexts.retrieved(run));
            case RERANK -> {
                passages(data.putArray("input"), run.stages().rerank().input());
                ArrayNode kept = data.putArray("kept");
                RunTexts.kept(run).stream().limit(Prompts.MAX_PASSAGES).forEach(p -> kept.add(p.id()));
            }
            case SUPPORT -> {
                passages(data.putArray("context"), RunTexts.context(run));
                data.put("answer", cut(run.stages().generate().answer(), Prompts.MAX_TEXT_CHARS));
            }
            case EVIDENCE_FLOW -> {
                passages(data.putArray("context"), RunTexts.context(run));
                passages(data.putArray("dropped"), RunTexts.dropped(run));
                data.put("answer", cut(run.stages().generate().answer(), Prompts.MAX_TEXT_CHARS));
            }
        }
        return data;
    }

    private static void passages(ArrayNode into, List<Passage> passages) {
        passages.stream().limit(Prompts.MAX_PASSAGES).forEach(p -> into.addObject()
                .put("id", p.id())
                .put("text", cut(p.text(), Prompts.MAX_PASSAGE_CHARS)));
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max) + " [...]";
    }

    private static String fenced(String seed, ObjectNode data) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            String tag = HexFormat.of().formatHex(d, 0, 6);
            return "<<<RAGLOG-DATA " + tag + ">>>\n" + Json.write(data) + "\n<<<END RAGLOG-DATA " + tag + ">>>";
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] openAiBody(String model, Expected request) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", model);
        body.put("temperature", 0);
        body.put("max_tokens", request.maxOutputTokens());
        body.putObject("response_format").put("type", "json_object");
        var messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", request.system());
        messages.addObject().put("role", "user").put("content", request.user());
        return Json.writeBytes(body);
    }

    private static byte[] anthropicBody(String model, Expected request) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", model);
        body.put("max_tokens", request.maxOutputTokens());
        body.put("temperature", 0);
        body.put("system", request.system());
        body.putArray("messages").addObject().put("role", "user").put("content", request.user());
        return Json.writeBytes(body);
    }

    /** Bedrock's Converse: the model is in the path, the texts in content blocks. */
    private static byte[] converseBody(Expected request) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.putArray("system").addObject().put("text", request.system());
        body.putArray("messages").addObject().put("role", "user").putArray("content").addObject()
                .put("text", request.user());
        body.putObject("inferenceConfig").put("maxTokens", request.maxOutputTokens()).put("temperature", 0);
        return Json.writeBytes(body);
    }

    // ---- random runs ------------------------------------------------------------------------------------------

    private static Run run(Random random, int i) {
        List<Passage> retrieved = passages(random);
        List<Passage> rerankInput = random.nextInt(4) == 0 ? passages(random) : retrieved;
        List<Passage> rerankOutput = pick(random, rerankInput);
        List<Passage> context = random.nextInt(5) == 0 ? passages(random) : pick(random, rerankOutput);
        String question = maybe(random, 4_500);
        Instant t0 = Instant.parse("2026-11-29T10:00:00Z");
        RunStages stages = new RunStages(
                random.nextInt(5) == 0 ? RewriteStage.absent() : new RewriteStage(true, 1, List.of("c1"), "m",
                        maybe(random, 300), random.nextInt(40) == 0 ? null : texts(random)),
                EmbedStage.absent(),
                random.nextInt(5) == 0 ? RetrieveStage.absent()
                        : new RetrieveStage(true, 1, List.of("c3"), "s", null, 10, retrieved, false),
                random.nextInt(4) == 0 ? RerankStage.absent()
                        : new RerankStage(true, 1, List.of("c4"), "r", question, rerankInput, rerankOutput,
                                random.nextInt(3) == 0 ? null : random.nextInt(30)),
                random.nextInt(5) == 0 ? GenerateStage.absent()
                        : new GenerateStage(true, 1, List.of("c5"), "g", context, "p", maybe(random, 4_500),
                                new TokenUsage(1, 1), false));
        return new Run(SchemaIds.RUN_V1, "run-" + i + text(random, 3), "pipe", null, question, t0, t0, false,
                null, List.of(), List.of(), stages);
    }

    private static List<Passage> passages(Random random) {
        if (random.nextInt(30) == 0) {
            return null;
        }
        List<Passage> out = new ArrayList<>();
        for (int p = random.nextInt(random.nextInt(8) == 0 ? 30 : 8); p > 0; p--) {
            if (random.nextInt(40) == 0) {
                out.add(null);
                continue;
            }
            String id = random.nextInt(30) == 0 ? null : "doc-" + random.nextInt(12) + "#" + text(random, 2);
            out.add(new Passage(id, maybe(random, 2_300), random.nextDouble(), p));
        }
        return out;
    }

    private static List<Passage> pick(Random random, List<Passage> from) {
        if (from == null) {
            return random.nextBoolean() ? null : List.of();
        }
        return from.stream().filter(p -> random.nextInt(3) > 0).toList();
    }

    private static List<String> texts(Random random) {
        List<String> out = new ArrayList<>();
        for (int n = random.nextInt(4); n > 0; n--) {
            out.add(maybe(random, 4_500));
        }
        return out;
    }

    /** Null now and then, long enough to be cut now and then, else a sentence or two. */
    private static String maybe(Random random, int longest) {
        int roll = random.nextInt(20);
        if (roll == 0) {
            return null;
        }
        return text(random, roll == 1 ? longest : random.nextInt(400));
    }

    /** Letters, quotes, backslashes, line breaks, controls, each UTF-8 length's edges, emoji and lone surrogates. */
    private static String text(Random random, int length) {
        String alphabet = random.nextInt(3) == 0
                ? "abc XYZ \"\\\n\r\t\b\f\u0000\u0001\u001f\u007f\u0080é\u07ff\u0800漢字\uffff<>>>😀\ud800\udfff\u2028/"
                : "The quick brown fox, 42 jumps. ";
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }
}
