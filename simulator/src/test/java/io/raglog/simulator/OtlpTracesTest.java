package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Label;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OpenInference profile writes OTLP/JSON as the Collector's kafka exporter does. */
class OtlpTracesTest {

    @TempDir
    static Path dir;

    static SimulatedLogs logs;

    @BeforeAll
    static void simulate() {
        logs = SimulatedLogs.simulate(SimulatorOptions.of("otel-llamaindex", 150, 3).withIndexEvery(50), dir);
    }

    @Test
    void shouldEncodeExportRequestsAsOtlpJson() {
        assertThat(logs.calls).isEmpty();
        assertThat(logs.exportRequests).isNotEmpty();
        for (JsonNode request : logs.exportRequests) {
            JsonNode resourceSpans = request.get("resourceSpans").get(0);
            JsonNode service = resourceSpans.get("resource").get("attributes").get(0);
            assertThat(service.get("key").asText()).isEqualTo("service.name");
            assertThat(service.get("value").get("stringValue").asText()).isEqualTo("kb-llamaindex");
            JsonNode scopeSpans = resourceSpans.get("scopeSpans").get(0);
            assertThat(scopeSpans.get("scope").get("name").asText())
                    .isEqualTo("openinference.instrumentation.llama_index");
            for (JsonNode span : scopeSpans.get("spans")) {
                assertThat(span.get("traceId").asText()).matches("[0-9a-f]{32}");
                assertThat(span.get("spanId").asText()).matches("[0-9a-f]{16}");
                assertThat(span.get("startTimeUnixNano").isTextual()).isTrue();
                assertThat(Long.parseLong(span.get("endTimeUnixNano").asText()))
                        .isGreaterThanOrEqualTo(Long.parseLong(span.get("startTimeUnixNano").asText()));
                assertThat(span.get("kind").isInt()).isTrue();
                for (JsonNode a : span.get("attributes")) {
                    if (a.get("value").has("intValue")) {
                        assertThat(a.get("value").get("intValue").isTextual()).as(a.get("key").asText()).isTrue();
                    }
                }
            }
        }
    }

    @Test
    void shouldBatchSpansOfSeveralTracesIntoOneExport() {
        boolean mixed = false;
        for (JsonNode request : logs.exportRequests) {
            Set<String> traces = new HashSet<>();
            request.get("resourceSpans").get(0).get("scopeSpans").get(0).get("spans")
                    .forEach(s -> traces.add(s.get("traceId").asText()));
            mixed |= traces.size() > 1;
        }
        assertThat(mixed).isTrue();
    }

    @Test
    void shouldTraceEveryRunThroughTheFiveOpenInferenceSpanKinds() {
        for (Label label : logs.labels) {
            List<SimulatedLogs.Span> spans = logs.spansOfTrace(label.runHint());
            assertThat(spans).extracting(SimulatedLogs.Span::kind)
                    .containsExactlyInAnyOrder("LLM", "EMBEDDING", "RETRIEVER", "RERANKER", "LLM", "CHAIN");
            SimulatedLogs.Span root = spans.stream().filter(s -> s.kind().equals("CHAIN")).findFirst().orElseThrow();
            assertThat(root.parentSpanId()).isNull();
            assertThat(root.text("input.value")).isEqualTo(label.question());
            SimulatedLogs.Span retriever = spans.stream().filter(s -> s.kind().equals("RETRIEVER")).findFirst()
                    .orElseThrow();
            SimulatedLogs.Span embedding = spans.stream().filter(s -> s.kind().equals("EMBEDDING")).findFirst()
                    .orElseThrow();
            assertThat(embedding.parentSpanId()).isEqualTo(retriever.spanId());
            assertThat(retriever.attributes()).containsKeys("retrieval.documents.0.document.id",
                    "retrieval.documents.0.document.content", "retrieval.documents.0.document.score");
            SimulatedLogs.Span reranker = spans.stream().filter(s -> s.kind().equals("RERANKER")).findFirst()
                    .orElseThrow();
            assertThat(reranker.text("reranker.top_k")).isEqualTo("3");
            assertThat(reranker.attributes()).containsKeys("reranker.query", "reranker.model_name",
                    "reranker.input_documents.5.document.content", "reranker.output_documents.2.document.score");
            SimulatedLogs.Span generator = spans.stream()
                    .filter(s -> label.generatorEventId().equals(s.traceId() + ":" + s.spanId())).findFirst()
                    .orElseThrow();
            assertThat(generator.text("llm.input_messages.1.message.content"))
                    .startsWith("Context information is below.");
            assertThat(generator.attributes().get("llm.token_count.prompt").asInt()).isPositive();
            assertThat(generator.text("llm.model_name")).isEqualTo("gpt-4o-mini");
        }
    }

    @Test
    void shouldExportIndexBuildingAsItsOwnEmbeddingTrace() {
        Set<String> runTraces = new HashSet<>();
        logs.labels.forEach(l -> runTraces.add(l.runHint()));
        List<SimulatedLogs.Span> indexing = logs.spans.stream().filter(s -> !runTraces.contains(s.traceId())).toList();
        assertThat(indexing).isNotEmpty().allSatisfy(s -> {
            assertThat(s.kind()).isEqualTo("EMBEDDING");
            assertThat(s.attributes()).containsKey("embedding.embeddings.31.embedding.text");
        });
    }
}
