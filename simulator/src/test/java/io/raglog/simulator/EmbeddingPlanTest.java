package io.raglog.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Label;
import io.raglog.simulator.output.MemorySink;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmbeddingPlanTest {

    private static final String ADA = "text-embedding-ada-002";

    private static MemorySink simulate(SimulatorOptions options) {
        MemorySink sink = new MemorySink();
        new Simulator(options).run(sink);
        return sink;
    }

    private static List<String> embeddingModels(MemorySink sink, String pipeline, boolean indexBuilding) {
        return sink.calls().stream().filter(c -> c.pipeline().equals(pipeline))
                .filter(c -> c.request().url().endsWith("/embeddings"))
                .filter(c -> (c.runHint() == null && c.request().body().get("input").isArray()) == indexBuilding)
                .map(c -> c.request().body().get("model").textValue()).distinct().toList();
    }

    @Test
    void shouldSwitchThePipelinesQueryModelAfterItsRunsAndLabelTheRunsAfter() {
        SimulatorOptions options = SimulatorOptions.of("openai-qdrant-cohere", 60, 5).withIndexEvery(10)
                .withEmbeddingPlan(EmbeddingPlan.switchAt("support-assistant:40:" + ADA));
        MemorySink sink = simulate(options);
        List<Label> labels = sink.labels();
        assertThat(labels.subList(0, 40)).noneMatch(l -> EmbeddingPlan.FAULT_TYPE.equals(l.faultType()));
        assertThat(labels.subList(40, 60)).allSatisfy(l -> assertThat(l.stages().embed()).isEqualTo(1));
        assertThat(labels.subList(40, 60)).anyMatch(l -> EmbeddingPlan.FAULT_TYPE.equals(l.faultType()));
        assertThat(embeddingModels(sink, "support-assistant", false))
                .containsExactlyInAnyOrder("text-embedding-3-small", ADA);
        assertThat(embeddingModels(sink, "support-assistant", true)).containsExactly("text-embedding-3-small");
    }

    @Test
    void shouldBuildThePlantedIndexWithAnotherModelThanItsQueries() {
        SimulatorOptions options = SimulatorOptions.of("elastic-voyage-responses", 30, 5).withIndexEvery(10)
                .withEmbeddingPlan(EmbeddingPlan.none().withIndex("search-answers:" + ADA));
        MemorySink sink = simulate(options);
        assertThat(embeddingModels(sink, "search-answers", true)).containsExactly(ADA);
        assertThat(embeddingModels(sink, "search-answers", false)).containsExactly("text-embedding-3-small");
        assertThat(sink.labels()).allSatisfy(l -> assertThat(l.stages().embed()).isEqualTo(1));
    }

    @Test
    void shouldLeaveTheOutputAsItWasWithoutAPlan() {
        SimulatorOptions plain = SimulatorOptions.of("openai-qdrant-cohere", 20, 9);
        List<CallEvent> before = simulate(plain).calls();
        List<CallEvent> after = simulate(plain.withEmbeddingPlan(EmbeddingPlan.none())).calls();
        assertThat(after).isEqualTo(before);
    }
}
