package io.raglog.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.Label;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunIds;
import io.raglog.schemas.Stage;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * Unhinted runs with every embed fault, measured against the truth: the simulator's hinted profiles give each call its
 * run, then the hints are taken away (as a client without a run header sends them), the retrieval calls are dropped
 * (an in-process vector store: no query vector to link the embedding by) and a third of the runs prefix what they
 * embed with an instruction (E5, BGE, nomic styles). Each run must come out whole, with its own embedding call, and
 * no call may be left over as an orphan.
 */
class UnhintedEmbedLinkingTest {

    private static final List<String> PREFIXES = List.of("query: ", "search_query: ",
            "Represent this sentence for searching relevant passages: ",
            "Represent the question for retrieving supporting documents: ");

    /** One run's truth: its label, its calls, and what was done to its embedding. */
    private record Truth(Label label, Set<String> callIds, String embedFault) {}

    @Test
    void shouldGiveEveryUnhintedRunItsOwnEmbeddingCallWhateverTheEmbedFault() throws Exception {
        MemorySink simulated = new MemorySink();
        new Simulator(SimulatorOptions.of("ollama-jina-vllm,openai-qdrant-cohere", 300, 23).withFaultRate(1.0))
                .run(simulated);
        List<CallEvent> events = simulated.calls();
        List<Label> labels = simulated.labels();

        Map<String, Label> byHint = new HashMap<>();
        labels.forEach(l -> byHint.put(l.runHint(), l));
        CallClassifier classifier = BuiltInAdapters.classifier();
        Map<String, Set<String>> callsByHint = new HashMap<>();
        Set<String> prefixed = new HashSet<>();
        List<ClassifiedCall> calls = new ArrayList<>();
        for (CallEvent e : events) {
            Label label = e.runHint() == null ? null : byHint.get(e.runHint());
            if (label == null) {
                continue; // index-building calls: part of no run
            }
            // a third of the runs embed with an instruction prefix, chosen by the run
            int pick = Math.floorMod(label.runHint().hashCode(), 3 * PREFIXES.size());
            CallEvent unhinted = unhinted(e, pick < PREFIXES.size() ? PREFIXES.get(pick) : null);
            if (!(classifier.classify(unhinted) instanceof Classification.Classified c) || c.call().stage() == null
                    || c.call().detail() instanceof NotARunCall) {
                continue;
            }
            if (c.call().stage() == Stage.RETRIEVE) {
                continue; // an in-process vector store logs no retrieval
            }
            if (c.call().stage() == Stage.EMBED && pick < PREFIXES.size()) {
                prefixed.add(label.runHint());
            }
            calls.add(c.call().forAssembly());
            callsByHint.computeIfAbsent(label.runHint(), h -> new HashSet<>()).add(e.eventId());
        }
        calls.sort(Comparator.comparing((ClassifiedCall c) -> c.event().endedAt())
                .thenComparing(c -> c.event().eventId()));

        Map<String, Truth> truth = new HashMap<>();
        for (Label l : labels) {
            String fault = "embed".equals(l.faultStage()) ? l.faultType()
                    : prefixed.contains(l.runHint()) ? "prefix" : "no embed fault";
            if ("embed".equals(l.faultStage()) && prefixed.contains(l.runHint())) {
                fault = fault + "+prefix";
            }
            truth.put(RunIds.of(l.pipeline(), null, l.generatorEventId()),
                    new Truth(l, callsByHint.get(l.runHint()), fault));
        }

        long linkingStart = System.nanoTime();
        StreamedAssembly assembly = StreamedAssembly.of(calls);
        List<Run> runs = assembly.runs();
        assertThat(assembly.keyedStateEntries()).as("keyed state entries").isZero();
        assertThat(assembly.eventTimeTimers()).as("event-time timers").isZero();

        long linkingMs = (System.nanoTime() - linkingStart) / 1_000_000;
        // the embedding calls of each run, by the truth: what this test is about
        Map<String, String> stageOf = new HashMap<>();
        calls.forEach(c -> stageOf.put(c.event().eventId(), c.stage().id()));
        // questions asked twice with both runs in flight: identical rewrites and generators, told apart by time only
        Map<String, Integer> asked = new HashMap<>();
        labels.forEach(l -> asked.merge(l.question(), 1, Integer::sum));
        Map<String, int[]> byFault = new TreeMap<>(); // fault → {runs, mis-assembled, embedding not its own}
        int misAssembled = 0;
        int wrongEmbedding = 0;
        int misAssembledOtherwise = 0;
        int wrongEmbeddingOtherwise = 0;
        List<String> examples = new ArrayList<>();
        int orphanCalls = 0;
        int incomplete = 0;
        Map<String, Run> byId = new HashMap<>();
        for (Run r : runs) {
            byId.put(r.runId(), r);
            if (r.incomplete()) {
                incomplete++;
                orphanCalls += r.callIds().size();
            }
        }
        for (Map.Entry<String, Truth> e : truth.entrySet()) {
            Truth t = e.getValue();
            Run run = byId.get(e.getKey());
            boolean wrong = run == null || run.incomplete() || !new HashSet<>(run.callIds()).equals(t.callIds());
            int[] counts = byFault.computeIfAbsent(t.embedFault(), f -> new int[3]);
            counts[0]++;
            Set<String> embeds = new HashSet<>(t.callIds());
            embeds.removeIf(id -> !"embed".equals(stageOf.get(id)));
            Set<String> gotEmbeds = new HashSet<>(run == null ? List.of() : run.callIds());
            gotEmbeds.removeIf(id -> !"embed".equals(stageOf.get(id)));
            if (!gotEmbeds.equals(embeds)) {
                counts[2]++;
                wrongEmbedding++;
                if (asked.get(t.label().question()) < 2) {
                    wrongEmbeddingOtherwise++;
                }
            }
            if (wrong) {
                counts[1]++;
                misAssembled++;
                if (asked.get(t.label().question()) < 2) {
                    misAssembledOtherwise++;
                }
                if (examples.size() < 5) {
                    examples.add(t.label().question() + " [" + t.label().faultDetail() + "]: expected "
                            + t.callIds() + ", got " + (run == null ? "no run" : run.callIds()));
                }
            }
        }
        StringBuilder report = new StringBuilder(String.format(
                "%d runs, %d assembled (%d incomplete), %d mis-assembled (%d of a question asked once), %d without their own"
                        + " embedding call, %d calls in incomplete runs; assembly took %d ms%n",
                truth.size(), runs.size(), incomplete, misAssembled, misAssembledOtherwise, wrongEmbedding,
                orphanCalls, linkingMs));
        byFault.forEach((fault, c) -> report.append(String.format(
                "  %-28s %4d runs, %3d mis-assembled, %3d without their own embedding call%n", fault, c[0], c[1],
                c[2])));
        examples.forEach(e -> report.append("  e.g. ").append(e).append('\n'));
        System.out.println(report);

        assertThat(byFault.keySet()).as("every embed fault kind was simulated").contains("embed.typo",
                "embed.truncated", "embed.lost_entity", "embed.wrong_field", "prefix");
        assertThat(incomplete).as(report.toString()).isZero();
        // the one mix-up left: a question asked twice at once, whose identical rewrites exact linking gives by
        // nearness to the generator, and whose embeddings then follow the rewrite each run was given. Content cannot
        // tell those two runs apart; every other run must be whole
        assertThat(misAssembledOtherwise).as(report.toString()).isZero();
        assertThat(wrongEmbeddingOtherwise).as(report.toString()).isZero();
        assertThat(wrongEmbedding).as(report.toString()).isLessThanOrEqualTo(misAssembled - misAssembledOtherwise);
    }

    /** The call as a client without a run header logs it; its embedded texts prefixed when {@code prefix} is set. */
    private static CallEvent unhinted(CallEvent e, String prefix) {
        HttpRequest request = e.request();
        if (prefix != null && request.url().contains("embed") && request.body() instanceof ObjectNode body) {
            ObjectNode copy = body.deepCopy();
            for (String field : List.of("input", "inputs")) {
                JsonNode input = copy.get(field);
                if (input != null && input.isTextual()) {
                    copy.set(field, new TextNode(prefix + input.asText()));
                } else if (input instanceof ArrayNode texts && texts.size() > 0 && texts.get(0).isTextual()) {
                    ArrayNode out = copy.arrayNode();
                    texts.forEach(t -> out.add(prefix + t.asText()));
                    copy.set(field, out);
                }
            }
            request = new HttpRequest(request.method(), request.url(), request.headers(), copy);
        }
        return new CallEvent(e.schema(), e.eventId(), e.pipeline(), null, e.startedAt(), e.endedAt(), request,
                e.response(), e.source());
    }
}
