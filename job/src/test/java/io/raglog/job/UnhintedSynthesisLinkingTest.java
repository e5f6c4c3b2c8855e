package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.ChatRole;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Unhinted runs whose answers are synthesised in several calls, measured against the truth: the simulator's hinted
 * profiles give each call its run, then the hints are taken away and each run's generator call is replaced, by the
 * run, with LangChain's refine chain (a call per passage, each refining the answer before it) or LlamaIndex's tree
 * summary (a summary of each half of the passages at once, then one of the two), or left as one call, the calls of
 * many runs interleaved. Each run must come out whole, its generator every step and its answer the last, and no step
 * may be left over as an orphan.
 */
class UnhintedSynthesisLinkingTest {

    private enum Synthesis { ONE_CALL, REFINE, TREE }

    /** One run's truth: its label, its calls, its answer steps, how its answer was synthesised. */
    private record Truth(Label label, Set<String> callIds, List<String> steps, Synthesis synthesis) {}

    @Test
    void shouldGiveEveryUnhintedRunAllTheStepsOfItsAnswer() throws Exception {
        MemorySink simulated = new MemorySink();
        new Simulator(SimulatorOptions.of("ollama-jina-vllm,openai-qdrant-cohere", 1000, 29).withFaultRate(0.5))
                .run(simulated);
        Map<String, Label> byHint = new HashMap<>();
        simulated.labels().forEach(l -> byHint.put(l.runHint(), l));
        CallClassifier classifier = BuiltInAdapters.classifier();
        Map<String, Set<String>> callsByHint = new HashMap<>();
        Map<String, List<ClassifiedCall>> stepsByHint = new HashMap<>();
        Map<String, Synthesis> synthesisByHint = new HashMap<>();
        List<ClassifiedCall> calls = new ArrayList<>();
        for (CallEvent e : simulated.calls()) {
            Label label = e.runHint() == null ? null : byHint.get(e.runHint());
            if (label == null) {
                continue; // index-building calls: part of no run
            }
            CallEvent unhinted = new CallEvent(e.schema(), e.eventId(), e.pipeline(), null, e.startedAt(),
                    e.endedAt(), e.request(), e.response(), e.source());
            if (!(classifier.classify(unhinted) instanceof Classification.Classified c) || c.call().stage() == null
                    || c.call().detail() instanceof NotARunCall) {
                continue;
            }
            List<ClassifiedCall> made = List.of(c.call());
            Synthesis synthesis = Synthesis.ONE_CALL;
            if (e.eventId().equals(label.generatorEventId()) && c.call().detail() instanceof ChatDetail chat
                    && chat.contextPassages().size() >= 2) {
                synthesis = Synthesis.values()[Math.floorMod(label.runHint().hashCode(), 3)];
                made = synthesis == Synthesis.REFINE ? refineSteps(unhinted, chat)
                        : synthesis == Synthesis.TREE ? treeSteps(unhinted, chat) : made;
            }
            for (ClassifiedCall m : made) {
                calls.add(m.forAssembly());
                callsByHint.computeIfAbsent(label.runHint(), h -> new HashSet<>()).add(m.event().eventId());
                if (m.stage() == Stage.GENERATE) {
                    stepsByHint.computeIfAbsent(label.runHint(), h -> new ArrayList<>()).add(m);
                }
            }
            if (e.eventId().equals(label.generatorEventId())) {
                synthesisByHint.put(label.runHint(), synthesis);
            }
        }
        calls.sort(Comparator.comparing((ClassifiedCall c) -> c.event().endedAt())
                .thenComparing(c -> c.event().eventId()));

        Map<String, Truth> truth = new HashMap<>();
        for (Label l : simulated.labels()) {
            // the generator's calls in the order the run lists them, failed attempts (a 429) among them; the run is
            // named after the call that closed it, its answer's last step
            List<ClassifiedCall> generated = stepsByHint.get(l.runHint());
            generated.sort(Comparator.comparing((ClassifiedCall c) -> c.event().startedAt())
                    .thenComparing(c -> c.event().eventId()));
            List<String> steps = generated.stream().map(c -> c.event().eventId()).toList();
            String last = generated.stream().filter(c -> !c.event().failed()).reduce((a, b) -> b).orElseThrow()
                    .event().eventId();
            truth.put(RunIds.of(l.pipeline(), null, last), new Truth(l,
                    callsByHint.get(l.runHint()), steps, synthesisByHint.get(l.runHint())));
        }

        StreamedAssembly assembly = StreamedAssembly.of(calls);
        List<Run> runs = assembly.runs();
        // what each pipeline learned: how long its answers' steps take
        assertThat(assembly.keyedStateEntries()).as("keyed state entries").isEqualTo(2);
        assertThat(assembly.eventTimeTimers()).as("event-time timers").isZero();

        Map<String, String> stageOf = new HashMap<>();
        calls.forEach(c -> stageOf.put(c.event().eventId(), c.stage().id()));
        Map<String, Integer> asked = new HashMap<>();
        simulated.labels().forEach(l -> asked.merge(l.question(), 1, Integer::sum));
        Map<String, Run> byId = new HashMap<>();
        int incomplete = 0;
        for (Run r : runs) {
            byId.put(r.runId(), r);
            incomplete += r.incomplete() ? 1 : 0;
        }
        Map<Synthesis, int[]> bySynthesis = new TreeMap<>(); // → {runs, mis-assembled, of a question asked once}
        List<String> examples = new ArrayList<>();
        for (Map.Entry<String, Truth> e : truth.entrySet()) {
            Truth t = e.getValue();
            Run run = byId.get(e.getKey());
            int[] counts = bySynthesis.computeIfAbsent(t.synthesis(), s -> new int[3]);
            counts[0]++;
            boolean wrong = run == null || run.incomplete() || !new HashSet<>(run.callIds()).equals(t.callIds())
                    || !run.stages().generate().callIds().equals(t.steps());
            if (wrong) {
                counts[1]++;
                counts[2] += asked.get(t.label().question()) < 2 ? 1 : 0;
                if (examples.size() < 5) {
                    Set<String> missing = new HashSet<>(t.callIds());
                    if (run != null) {
                        missing.removeAll(run.callIds());
                    }
                    examples.add(t.synthesis() + " " + t.label().question() + ": without " + missing.stream()
                            .map(id -> stageOf.get(id) + " " + id).toList() + (run == null ? ", no run" : ""));
                }
            }
        }
        StringBuilder report = new StringBuilder(String.format("%d runs, %d assembled (%d incomplete)%n",
                truth.size(), runs.size(), incomplete));
        bySynthesis.forEach((s, c) -> report.append(String.format(
                "  %-8s %4d runs, %3d mis-assembled (%d of a question asked once)%n", s, c[0], c[1], c[2])));
        examples.forEach(x -> report.append("  e.g. ").append(x).append('\n'));
        System.out.println(report);

        assertThat(bySynthesis.keySet()).containsExactlyInAnyOrder(Synthesis.values());
        assertThat(bySynthesis.get(Synthesis.REFINE)[0]).isGreaterThan(250);
        assertThat(bySynthesis.get(Synthesis.TREE)[0]).isGreaterThan(250);
        assertThat(incomplete).as(report.toString()).isZero();
        // as for embeddings (UnhintedEmbedLinkingTest): a question asked twice with both runs in flight can swap the
        // calls content cannot tell apart; every other run must be whole
        for (int[] c : bySynthesis.values()) {
            assertThat(c[2]).as(report.toString()).isZero();
        }
    }

    /**
     * LangChain's refine chain over the generator's passages: the first answers from the first passage, each next
     * refines that answer with the next passage; the drafts are the passages' opening sentences, the last answer the
     * generator's. Each step takes as long as the generator did, a few milliseconds after the one before.
     */
    private static List<ClassifiedCall> refineSteps(CallEvent generator, ChatDetail chat) {
        List<String> passages = chat.contextPassages();
        long took = generator.endedAt().toEpochMilli() - generator.startedAt().toEpochMilli();
        List<ClassifiedCall> steps = new ArrayList<>();
        String answer = null;
        for (int i = 0; i < passages.size(); i++) {
            String prompt = i == 0
                    ? "Context information is below. \n------------\n" + passages.get(0) + "\n------------\nGiven the "
                            + "context information and not prior knowledge, answer the question: " + chat.question()
                            + "\n"
                    : "The original question is as follows: " + chat.question() + "\nWe have provided an existing "
                            + "answer: " + answer + "\nWe have the opportunity to refine the existing answer(only if "
                            + "needed) with some more context below.\n------------\n" + passages.get(i)
                            + "\n------------\nGiven the new context, refine the original answer to better answer the "
                            + "question. If the context isn't useful, return the original answer.";
            answer = i == passages.size() - 1 ? chat.output() : passages.get(i).split("(?<=[.!?])\\s")[0];
            long start = generator.startedAt().toEpochMilli() + i * (took + 5);
            steps.add(step(generator, "-step-" + i, start, start + took, prompt, answer));
        }
        return steps;
    }

    /**
     * LlamaIndex's tree summary: each half of the passages summarised at once, then the two summaries summarised into
     * the generator's answer, a few milliseconds after the later half.
     */
    private static List<ClassifiedCall> treeSteps(CallEvent generator, ChatDetail chat) {
        List<String> passages = chat.contextPassages();
        int half = passages.size() / 2;
        long start = generator.startedAt().toEpochMilli();
        long took = generator.endedAt().toEpochMilli() - start;
        String left = "The first sources say that " + passages.get(0).split("(?<=[.!?])\\s")[0];
        String right = "The other sources say that " + passages.get(half).split("(?<=[.!?])\\s")[0];
        return List.of(
                step(generator, "-step-0", start, start + took, tree(passages.subList(0, half), chat.question()), left),
                step(generator, "-step-1", start + 3, start + took + 40,
                        tree(passages.subList(half, passages.size()), chat.question()), right),
                step(generator, "-step-2", start + took + 45, start + 2 * took + 45,
                        tree(List.of(left, right), chat.question()), chat.output()));
    }

    private static String tree(List<String> context, String question) {
        return "Context information from multiple sources is below.\n---------------------\n"
                + String.join("\n\n", context) + "\n---------------------\nGiven the information from multiple "
                + "sources and not prior knowledge, answer the query.\nQuery: " + question + "\nAnswer: ";
    }

    private static ClassifiedCall step(CallEvent generator, String suffix, long startMs, long endMs, String prompt,
            String answer) {
        ChatDetail detail = ChatDetails.of("openai.chat", "gpt-4o", List.of(new ChatMessage("user", prompt)), answer,
                null, false);
        assertThat(detail.role()).as("the step %s%s read as a generator", generator.eventId(), suffix)
                .isEqualTo(ChatRole.GENERATE);
        // the first step is the request the generator's failed attempts (a 429) were retries of
        HttpRequest request = suffix.endsWith("-0") ? generator.request() : new HttpRequest("POST",
                generator.request().url(), generator.request().headers(),
                JsonNodeFactory.instance.objectNode().put("prompt", prompt));
        CallEvent event = new CallEvent(generator.schema(), generator.eventId() + suffix, generator.pipeline(), null,
                Instant.ofEpochMilli(startMs), Instant.ofEpochMilli(endMs), request, generator.response(),
                generator.source());
        return new ClassifiedCall(event, Stage.GENERATE, detail);
    }
}
