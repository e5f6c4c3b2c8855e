package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Label;
import io.raglog.schemas.RunIds;
import io.raglog.schemas.Stage;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.profile.Profile;
import io.raglog.simulator.wire.Vectors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The labels say what the logs show: read the written files back as a consumer would and check each label against
 * the calls and spans of its run.
 */
class LabelsAgreeWithLogsTest {

    @TempDir
    static Path dir;

    static Simulator simulator;
    static SimulatedLogs logs;
    /** Chunk texts by profile and chunk id: the evidence a label names, as the pipeline's store holds it. */
    static final Map<String, Map<String, String>> chunkText = new HashMap<>();

    @BeforeAll
    static void simulate() {
        simulator = new Simulator(SimulatorOptions.of("all", 1500, 7).withFaultRate(0.6));
        logs = SimulatedLogs.simulate(simulator, dir);
        for (Profile p : simulator.profiles()) {
            Map<String, String> texts = new HashMap<>();
            for (Chunk c : simulator.index(p).chunks()) {
                texts.put(c.chunkId(), c.text());
            }
            chunkText.put(p.name(), texts);
        }
    }

    private static List<String> evidenceTexts(Label label) {
        List<String> out = new ArrayList<>();
        label.evidenceChunkIds().forEach(id -> out.add(chunkText.get(label.profile()).get(id)));
        return out;
    }

    private static List<String> acceptableAnswers(Label label) {
        return simulator.corpus().questions().stream().filter(q -> q.questionId().equals(label.questionId()))
                .findFirst().orElseThrow().acceptableAnswers();
    }

    private static boolean tracing(Label label) {
        return label.profile().equals("otel-llamaindex");
    }

    private static SimulatedLogs.Span generatorSpan(Label label) {
        String spanId = label.generatorEventId().substring(label.generatorEventId().indexOf(':') + 1);
        return logs.spans.stream().filter(s -> s.spanId().equals(spanId)).findFirst().orElseThrow();
    }

    private static String generatorPrompt(Label label) {
        if (tracing(label)) {
            return generatorSpan(label).text("llm.input_messages.1.message.content");
        }
        return WireReader.userPrompt(logs.callsById.get(label.generatorEventId()));
    }

    @Test
    void shouldPointEveryLabelAtTheGeneratorCallThatAnsweredIt() {
        assertThat(logs.labels).hasSize(1500);
        for (Label label : logs.labels) {
            assertThat(label.runId()).isEqualTo(RunIds.of(label.pipeline(), label.runHint(), label.generatorEventId()));
            if (tracing(label)) {
                SimulatedLogs.Span span = generatorSpan(label);
                assertThat(label.generatorEventId()).isEqualTo(span.traceId() + ":" + span.spanId());
                assertThat(label.runHint()).isEqualTo(span.traceId());
                assertThat(span.kind()).isEqualTo("LLM");
                assertThat(span.service()).isEqualTo(label.pipeline());
                assertThat(span.text("llm.output_messages.0.message.content")).isEqualTo(label.answer());
            } else {
                JsonNode call = logs.callsById.get(label.generatorEventId());
                assertThat(call).as("generator call of %s", label.runId()).isNotNull();
                assertThat(call.get("pipeline").asText()).isEqualTo(label.pipeline());
                assertThat(call.get("run_hint").asText(null)).isEqualTo(label.runHint());
                assertThat(WireReader.answer(call)).isEqualTo(label.answer());
            }
            assertThat(generatorPrompt(label)).contains(label.question());
        }
    }

    @Test
    void shouldKeepTheEvidenceOutOfThePromptWhenRetrievalOrRerankingFailed() {
        int checked = 0;
        for (Label label : logs.labels) {
            boolean lost = label.stages().faulty(Stage.RETRIEVE) || label.stages().faulty(Stage.RERANK);
            if (lost && label.isAnswerable()) {
                String prompt = generatorPrompt(label);
                for (String evidence : evidenceTexts(label)) {
                    assertThat(prompt).as("%s %s", label.faultType(), label.runId()).doesNotContain(evidence);
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(100);
    }

    @Test
    void shouldHaveTheEvidenceInThePromptOfASoundAnswerableRun() {
        int checked = 0;
        for (Label label : logs.labels) {
            if (!label.faulty() && label.isAnswerable()) {
                String prompt = generatorPrompt(label);
                // whole, or cut by the context budget after the answer
                assertThat(evidenceTexts(label)).anySatisfy(e -> assertThat(prompt).contains(opening(e)));
                // the expected answer or another the reference accepts: each of two evidence passages may hold one
                String lower = prompt.toLowerCase(java.util.Locale.ROOT);
                assertThat(acceptableAnswers(label)).anySatisfy(a -> assertThat(lower)
                        .contains(a.toLowerCase(java.util.Locale.ROOT)));
                assertThat(label.answerCorrect()).isTrue();
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(100);
    }

    @Test
    void shouldLoseTheEvidenceFromTheStoreResultsOfAnInjectedRetrievalFault() {
        int checked = 0;
        for (Label label : logs.labels) {
            if (!"retrieve".equals(label.faultStage()) || !Label.ORIGIN_INJECTED.equals(label.origin())
                    || !label.isAnswerable()) {
                continue;
            }
            Set<String> returned = new HashSet<>();
            if (label.profile().equals("openai-qdrant-cohere")) {
                JsonNode search = only(logs.callsOfHint(label.runHint()), "/points/search");
                search.get("response").get("body").get("result")
                        .forEach(p -> returned.add(p.get("payload").get("chunk_id").asText()));
            } else if (tracing(label)) {
                SimulatedLogs.Span retriever = logs.spansOfTrace(label.runHint()).stream()
                        .filter(s -> s.kind().equals("RETRIEVER")).findFirst().orElseThrow();
                retriever.attributes().forEach((k, v) -> {
                    if (k.endsWith(".document.id")) {
                        returned.add(v.asText());
                    }
                });
            } else {
                continue;
            }
            assertThat(returned).isNotEmpty().doesNotContainAnyElementsOf(label.evidenceChunkIds());
            checked++;
        }
        assertThat(checked).isGreaterThan(20);
    }

    @Test
    void shouldRankTheEvidenceJustBelowTheCutOffForAnInjectedRerankFault() {
        int checked = 0;
        for (Label label : logs.labels) {
            if (!"rerank.evidence_below_cutoff".equals(label.faultType())
                    || !Label.ORIGIN_INJECTED.equals(label.origin())) {
                continue;
            }
            List<String> evidence = evidenceTexts(label);
            if (label.profile().equals("openai-qdrant-cohere") || label.profile().equals("ollama-jina-vllm")) {
                JsonNode rerank = only(logs.callsOfHint(label.runHint()), "/rerank");
                JsonNode documents = rerank.get("request").get("body").get("documents");
                Set<Integer> evidenceIndexes = new HashSet<>();
                for (int i = 0; i < documents.size(); i++) {
                    if (evidence.contains(documents.get(i).asText())) {
                        evidenceIndexes.add(i);
                    }
                }
                assertThat(evidenceIndexes).as("evidence sent to the reranker").isNotEmpty();
                rerank.get("response").get("body").get("results")
                        .forEach(r -> assertThat(evidenceIndexes).doesNotContain(r.get("index").asInt()));
            } else if (label.profile().equals("langchain-memory")) {
                // no hint and no store call: the Cohere call whose kept passages fed this prompt
                // (when the budget left one passage, other calls may have ranked it first too: the one sent the
                // evidence is this run's)
                JsonNode rerank = cohereCallsFeeding(label.pipeline(), generatorPrompt(label)).stream()
                        .filter(call -> sentEvidence(call, evidence))
                        .findFirst().orElseThrow(() -> new AssertionError("no Cohere call sent the evidence"));
                JsonNode documents = rerank.get("request").get("body").get("documents");
                rerank.get("response").get("body").get("results").forEach(r -> assertThat(evidence)
                        .doesNotContain(documents.get(r.get("index").asInt()).asText()));
            } else if (label.profile().equals("elastic-voyage-responses")) {
                // Voyage scored every passage: the evidence was sent, and scored below the four the pipeline kept.
                JsonNode voyage = voyageCallFeeding(generatorPrompt(label));
                JsonNode data = voyage.get("response").get("body").get("data");
                JsonNode documents = voyage.get("request").get("body").get("documents");
                List<String> scored = new ArrayList<>();
                data.forEach(d -> scored.add(documents.get(d.get("index").asInt()).asText()));
                assertThat(scored.subList(4, scored.size())).anySatisfy(d -> assertThat(evidence).contains(d));
                assertThat(scored.subList(0, 4)).noneSatisfy(d -> assertThat(evidence).contains(d));
            } else {
                SimulatedLogs.Span reranker = logs.spansOfTrace(label.runHint()).stream()
                        .filter(s -> s.kind().equals("RERANKER")).findFirst().orElseThrow();
                List<String> in = new ArrayList<>();
                List<String> out = new ArrayList<>();
                reranker.attributes().forEach((k, v) -> {
                    if (k.startsWith("reranker.input_documents.") && k.endsWith(".document.id")) {
                        in.add(v.asText());
                    } else if (k.startsWith("reranker.output_documents.") && k.endsWith(".document.id")) {
                        out.add(v.asText());
                    }
                });
                assertThat(in).containsAnyElementsOf(label.evidenceChunkIds());
                assertThat(out).hasSize(3).doesNotContainAnyElementsOf(label.evidenceChunkIds());
            }
            checked++;
        }
        assertThat(checked).isGreaterThan(20);
    }

    /** A passage's first 40 characters: in the prompt whether the context budget kept it whole or cut it. */
    private static String opening(String passage) {
        return passage.substring(0, Math.min(40, passage.length()));
    }

    private static boolean sentEvidence(JsonNode rerankCall, List<String> evidence) {
        for (JsonNode d : rerankCall.get("request").get("body").get("documents")) {
            if (evidence.contains(d.asText())) {
                return true;
            }
        }
        return false;
    }

    /** The Cohere calls of {@code pipeline} whose kept passages could have fed {@code prompt}. */
    private static List<JsonNode> cohereCallsFeeding(String pipeline, String prompt) {
        List<JsonNode> feeding = new ArrayList<>();
        for (JsonNode call : logs.calls) {
            if (!SimulatedLogs.urlEndsWith(call, "/v2/rerank") || !SimulatedLogs.ok(call)
                    || !call.get("pipeline").asText().equals(pipeline)) {
                continue;
            }
            JsonNode documents = call.get("request").get("body").get("documents");
            // the context budget spends itself best first: it may cut a kept passage short (its opening is in the
            // prompt all the same) and drop the ones after it, so the passages in the prompt are the best few
            int inPrompt = 0;
            boolean feeds = true;
            boolean outSeen = false;
            for (JsonNode r : call.get("response").get("body").get("results")) {
                boolean in = prompt.contains(opening(documents.get(r.get("index").asInt()).asText()));
                feeds &= !(in && outSeen);
                outSeen |= !in;
                inPrompt += in ? 1 : 0;
            }
            if (feeds && inPrompt > 0) {
                feeding.add(call);
            }
        }
        assertThat(feeding).as("Cohere calls feeding this prompt").isNotEmpty();
        return feeding;
    }

    private static JsonNode voyageCallFeeding(String prompt) {
        for (JsonNode call : logs.calls) {
            if (!SimulatedLogs.urlEndsWith(call, "/v1/rerank") || !SimulatedLogs.ok(call)
                    || !call.get("pipeline").asText().equals("search-answers")) {
                continue;
            }
            JsonNode data = call.get("response").get("body").get("data");
            JsonNode documents = call.get("request").get("body").get("documents");
            boolean feeds = true;
            for (int i = 0; i < 4 && feeds; i++) {
                feeds = prompt.contains(documents.get(data.get(i).get("index").asInt()).asText());
            }
            if (feeds) {
                return call;
            }
        }
        throw new AssertionError("no Voyage call feeds this prompt");
    }

    @Test
    void shouldSendTheRewriteForEmbeddingUnlessAnEmbedFaultWasInjected() {
        int faulty = 0;
        int sound = 0;
        for (Label label : logs.labelsOf("openai-qdrant-cohere")) {
            List<JsonNode> calls = logs.callsOfHint(label.runHint());
            String rewrite = WireReader.answer(only(calls, "/chat/completions", 0));
            String embedded = only(calls, "/v1/embeddings").get("request").get("body").get("input").asText();
            if (label.stages().faulty(Stage.EMBED)) {
                assertThat(embedded).isNotEqualTo(rewrite);
                faulty++;
            } else {
                assertThat(embedded).isEqualTo(rewrite);
                sound++;
            }
        }
        for (Label label : logs.labelsOf("otel-llamaindex")) {
            List<SimulatedLogs.Span> spans = logs.spansOfTrace(label.runHint());
            String rewrite = spans.stream().filter(s -> s.kind().equals("LLM")
                            && s.text("llm.input_messages.0.message.content").startsWith("You are a helpful assistant"))
                    .findFirst().orElseThrow().text("llm.output_messages.0.message.content");
            String embedded = spans.stream().filter(s -> s.kind().equals("EMBEDDING")).findFirst().orElseThrow()
                    .text("embedding.embeddings.0.embedding.text");
            assertThat(embedded.equals(rewrite)).isEqualTo(!label.stages().faulty(Stage.EMBED));
        }
        assertThat(faulty).isGreaterThan(10);
        assertThat(sound).isGreaterThan(100);
    }

    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

    @Test
    void shouldDropTheNamedTermFromARewriteThatLostIt() {
        int checked = 0;
        for (Label label : logs.labelsOf("openai-qdrant-cohere")) {
            if (label.faultType() == null || !label.faultType().startsWith("rewrite.dropped_")) {
                continue;
            }
            Matcher m = QUOTED.matcher(label.faultDetail());
            assertThat(m.find()).isTrue();
            String term = m.group(1);
            String rewrite = WireReader.answer(only(logs.callsOfHint(label.runHint()), "/chat/completions", 0));
            assertThat(label.question()).contains(term);
            assertThat(rewrite.split("\\s+")).doesNotContain(term);
            checked++;
        }
        assertThat(checked).isGreaterThan(5);
    }

    @Test
    void shouldQueryTheStoreWithExactlyTheVectorTheEmbedderReturned() {
        int linked = 0;
        for (Label label : logs.labelsOf("openai-qdrant-cohere")) {
            List<JsonNode> calls = logs.callsOfHint(label.runHint());
            float[] embedded = WireReader.openAiEmbedding(only(calls, "/v1/embeddings"));
            float[] queried = WireReader.floats(only(calls, "/points/search").get("request").get("body").get("vector"));
            assertThat(queried).containsExactly(embedded);
            linked++;
        }
        // Hintless pipelines: every store query's vector is one an embedder returned (raglog links them this way).
        Set<String> teiVectors = new HashSet<>();
        Set<String> openAiVectors = new HashSet<>();
        for (JsonNode call : logs.calls) {
            if (!SimulatedLogs.ok(call)) {
                continue;
            }
            if (SimulatedLogs.urlEndsWith(call, "/embed") && call.get("request").get("body").path("inputs").isTextual()) {
                teiVectors.add(key(WireReader.floats(call.get("response").get("body").get(0))));
            } else if (SimulatedLogs.urlEndsWith(call, "/openai/v1/embeddings")
                    && call.get("request").get("body").get("input").isTextual()) {
                openAiVectors.add(key(WireReader.openAiEmbedding(call)));
            }
        }
        for (JsonNode call : logs.calls) {
            if (SimulatedLogs.urlEndsWith(call, "/query")) {
                assertThat(teiVectors).contains(key(WireReader.floats(call.get("request").get("body").get("vector"))));
                linked++;
            } else if (SimulatedLogs.urlEndsWith(call, "/_search")) {
                assertThat(openAiVectors).contains(
                        key(WireReader.floats(call.get("request").get("body").get("knn").get("query_vector"))));
                linked++;
            }
        }
        // three of the six training profiles query a store with a vector (Qdrant, Pinecone, Elasticsearch)
        assertThat(linked).isGreaterThan(logs.labels.size() * 2 / 5);
    }

    private static String key(float[] v) {
        return java.util.Arrays.toString(v);
    }

    @Test
    void shouldReportThatManyFaultyRunsStillAnswerCorrectly() {
        long faulty = logs.labels.stream().filter(Label::faulty).count();
        long faultyButCorrect = logs.labels.stream().filter(l -> l.faulty() && l.answerCorrect()).count();
        assertThat(logs.summary.faulty()).isEqualTo(faulty);
        assertThat(logs.summary.faultyButCorrectShare()).isEqualTo((double) faultyButCorrect / faulty);
        // RAGLog's finding: more than a third of faulty runs still answer correctly. Ours must show it too.
        assertThat(logs.summary.faultyButCorrectShare()).isBetween(0.2, 0.6);
        assertThat(logs.labels).anySatisfy(l -> assertThat(l.origin()).isEqualTo(Label.ORIGIN_NATURAL));
        assertThat(logs.labels).anySatisfy(l -> assertThat(l.origin()).isEqualTo(Label.ORIGIN_INJECTED));
    }

    private static JsonNode only(List<JsonNode> calls, String urlSuffix) {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode c : calls) {
            if (SimulatedLogs.urlEndsWith(c, urlSuffix) && SimulatedLogs.ok(c)) {
                found.add(c);
            }
        }
        assertThat(found).as("successful %s calls", urlSuffix).hasSize(1);
        return found.get(0);
    }

    /** The n-th successful call to the endpoint (the rewrite is the first chat call of a run, the answer the second). */
    private static JsonNode only(List<JsonNode> calls, String urlSuffix, int n) {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode c : calls) {
            if (SimulatedLogs.urlEndsWith(c, urlSuffix) && SimulatedLogs.ok(c)) {
                found.add(c);
            }
        }
        return found.get(n);
    }
}
