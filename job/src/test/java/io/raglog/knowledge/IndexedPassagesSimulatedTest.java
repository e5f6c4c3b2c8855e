package io.raglog.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.RetrieveDetail;
import io.raglog.calls.Classification;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The documents of every simulated stack's index-building calls, as the classifier hands them to the known passages:
 * read from each vendor's request shape, and the same passages (by {@link PassageKey}) as the ones its runs are
 * later handed by the store, so what indexing showed and what a run was handed are one passage.
 */
class IndexedPassagesSimulatedTest {

    @Test
    void shouldReadEachStacksIndexedDocumentsAsThePassagesItsStoreReturns() {
        MemorySink simulated = new MemorySink();
        // a batch of 32 chunks before every run of a profile: most of what the runs retrieve is indexed by the end
        new Simulator(SimulatorOptions.of("openai-qdrant-cohere,tei-pinecone-anthropic,ollama-jina-vllm,"
                + "elastic-voyage-responses,otel-llamaindex,langchain-memory,unseen-hyde-mistral", 700, 5)
                .withIndexEvery(1)).run(simulated);
        CallClassifier classifier = BuiltInAdapters.classifier();
        Map<String, Set<String>> indexedKeys = new HashMap<>();
        Map<String, Set<String>> returnedKeys = new HashMap<>();
        for (CallEvent e : simulated.calls()) {
            if (classifier.classify(e) instanceof Classification.Classified c) {
                IndexedPassages indexed = IndexedPassages.read(c.call());
                if (indexed != null) {
                    indexed.texts().forEach(t -> indexedKeys.computeIfAbsent(indexed.pipeline(),
                            p -> new HashSet<>()).add(PassageKey.of(t)));
                }
                if (c.call().detail() instanceof RetrieveDetail r && r.passages() != null) {
                    for (Passage p : r.passages()) {
                        returnedKeys.computeIfAbsent(e.pipeline(), x -> new HashSet<>()).add(PassageKey.of(p.text()));
                    }
                }
            }
        }
        assertThat(indexedKeys.keySet()).as("every stack with a retrieval call has its indexing read")
                .containsAll(returnedKeys.keySet());
        assertThat(returnedKeys).hasSizeGreaterThanOrEqualTo(4);
        for (var e : indexedKeys.entrySet()) {
            Set<String> returned = returnedKeys.getOrDefault(e.getKey(), Set.of());
            long known = returned.stream().filter(e.getValue()::contains).count();
            assertThat(known).as("%s: passages its store returned that indexing showed", e.getKey())
                    .isGreaterThanOrEqualTo(returned.size() / 2);
        }
    }
}
