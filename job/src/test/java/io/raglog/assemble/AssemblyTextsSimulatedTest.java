package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunIds;
import io.raglog.schemas.RunStages;
import io.raglog.schemas.Stage;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The assembly's texts and ids on the simulator's traffic (every profile) made the cheaper way (issue #27) and the
 * plain way must be the same: each generator's prompt text and parts, the run ids of every call as anchor and of
 * every hint, the content ids of every passage and document as normalised, and where each passage of a run sits in
 * its generator's prompt, whole or cut.
 */
class AssemblyTextsSimulatedTest {

    @Test
    void shouldMakeTheSameTextsAndIdsAsThePlainWayOnSimulatedTraffic() throws Exception {
        int prompts = 0;
        int cut = 0;
        for (SimulatorOptions options : List.of(SimulatorOptions.of("all", 150, 7),
                SimulatorOptions.of("all", 60, 11).withFaultRate(1.0))) {
            MemorySink sink = new MemorySink();
            new Simulator(options).run(sink);
            CallClassifier classifier = BuiltInAdapters.classifier();
            Map<String, List<ClassifiedCall>> byKey = new LinkedHashMap<>();
            for (CallEvent event : sink.calls()) {
                assertThat(RunIds.of(event.pipeline(), event.runHint(), event.eventId()))
                        .isEqualTo(plainRunId(event.pipeline(), event.runHint(), event.eventId()));
                assertThat(RunIds.of(event.pipeline(), null, event.eventId()))
                        .isEqualTo(plainRunId(event.pipeline(), null, event.eventId()));
                if (classifier.classify(event) instanceof Classification.Classified c && c.call().stage() != null) {
                    byKey.computeIfAbsent(c.call().runKey(), k -> new ArrayList<>()).add(c.call());
                    assertSignalsAsCollectedBefore(new CallSignals(c.call()), c.call());
                }
            }
            for (List<ClassifiedCall> run : byKey.values()) {
                NormalisedTexts norm = new NormalisedTexts();
                List<Passage> passages = new ArrayList<>();
                List<ChatDetail> chats = new ArrayList<>();
                for (ClassifiedCall call : run) {
                    if (call.detail() instanceof ChatDetail chat) {
                        assertThat(chat.promptParts()).containsExactlyElementsOf(listedPromptParts(chat.messages()));
                        assertThat(chat.promptText()).isEqualTo(joinedPromptText(chat.messages()));
                        chats.add(chat);
                        if (chat.contextPassages() != null) {
                            chat.contextPassages().forEach(t -> passages.add(new Passage(null, t, null, 0)));
                        }
                    } else if (call.detail() instanceof RetrieveDetail retrieve) {
                        passages.addAll(retrieve.passages());
                    } else if (call.detail() instanceof RerankDetail rerank) {
                        rerank.documents().forEach(t -> passages.add(new Passage(null, t, null, 0)));
                    }
                }
                for (Passage p : passages) {
                    String normalised = norm.text(p.text());
                    assertThat(Texts.normalisedContentId(normalised)).isEqualTo(plainContentId(normalised));
                }
                assertRunTakesItsCallsAsStreamsDid(run);
                for (ChatDetail chat : chats) {
                    String prompt = norm.prompt(chat);
                    List<PromptMatches.Match> matches = PromptMatches.find(prompt, passages, norm);
                    assertThat(matches).isEqualTo(PromptMatchesTest.plainFind(prompt, passages, norm));
                    prompts++;
                    cut += (int) matches.stream().filter(m -> m.reached() && !m.whole()).count();
                }
            }
        }
        // the traffic has prompts and passages cut to a budget, or this would hold little
        assertThat(prompts).isGreaterThan(100);
        assertThat(cut).isGreaterThan(0);
    }

    /**
     * The run's and each stage's call ids, its start, end and session as the streams gave them, and the run as
     * built from the calls in any order: ties of start and blank sessions come with the simulator's concurrent calls.
     */
    private static void assertRunTakesItsCallsAsStreamsDid(List<ClassifiedCall> calls) {
        List<ClassifiedCall> ordered = new ArrayList<>(calls);
        ordered.sort(Comparator.comparing((ClassifiedCall c) -> c.event().startedAt())
                .thenComparing(c -> c.event().eventId()));
        String pipeline = calls.get(0).event().pipeline();
        Run run = RunBuilder.build(pipeline, calls.get(0).event().runHint(), calls, calls.get(0), null);
        assertThat(run.startedAt())
                .isEqualTo(ordered.stream().map(c -> c.event().startedAt()).min(Instant::compareTo).orElse(null));
        assertThat(run.endedAt())
                .isEqualTo(ordered.stream().map(c -> c.event().endedAt()).max(Instant::compareTo).orElse(null));
        assertThat(run.callIds()).isEqualTo(ordered.stream().map(c -> c.event().eventId()).toList());
        assertThat(run.session()).isEqualTo(ordered.stream().map(c -> c.event().session())
                .filter(s -> s != null && !s.isBlank()).findFirst().orElse(null));
        RunStages stages = run.stages();
        assertThat(stages.rewrite().callIds()).isEqualTo(streamedIds(ordered, Stage.REWRITE));
        assertThat(stages.embed().callIds()).isEqualTo(streamedIds(ordered, Stage.EMBED));
        if (!stages.retrieve().reconstructed()) {
            assertThat(stages.retrieve().callIds()).isEqualTo(streamedIds(ordered, Stage.RETRIEVE));
        }
        assertThat(stages.rerank().callIds()).isEqualTo(streamedIds(ordered, Stage.RERANK));
        assertThat(stages.generate().callIds()).isEqualTo(streamedIds(ordered, Stage.GENERATE));
        List<ClassifiedCall> reversed = new ArrayList<>(calls);
        Collections.reverse(reversed);
        assertThat(Json.write(RunBuilder.build(pipeline, run.runHint(), reversed, calls.get(0), null)))
                .isEqualTo(Json.write(run));
    }

    /** A call's signals hold what the constructor that filled five collections for every call put in them. */
    private static void assertSignalsAsCollectedBefore(CallSignals signals, ClassifiedCall call) {
        Set<String> producedQueries = new LinkedHashSet<>();
        Set<String> consumedQueries = new LinkedHashSet<>();
        List<float[]> producedVectors = new ArrayList<>();
        List<String> producedPassages = new ArrayList<>();
        List<String> consumedPassages = new ArrayList<>();
        if (call.detail() instanceof ChatDetail chat) {
            if (call.stage() == Stage.REWRITE) {
                for (String out : RewriteQueries.split(chat.output())) {
                    producedQueries.add(Texts.norm(out));
                }
            }
        } else if (call.detail() instanceof EmbedDetail embed) {
            embed.texts().forEach(t -> consumedQueries.add(Texts.norm(t)));
            if (embed.vectors() != null) {
                producedVectors.addAll(embed.vectors());
            }
        } else if (call.detail() instanceof RetrieveDetail retrieve) {
            if (retrieve.queryText() != null) {
                consumedQueries.add(Texts.norm(retrieve.queryText()));
            }
            for (Passage p : retrieve.passages()) {
                producedPassages.add(Texts.norm(p.text()));
            }
        } else if (call.detail() instanceof RerankDetail rerank) {
            if (rerank.query() != null) {
                consumedQueries.add(Texts.norm(rerank.query()));
            }
            rerank.documents().forEach(d -> consumedPassages.add(Texts.norm(d)));
            for (RerankDetail.RerankResult r : rerank.results()) {
                if (r.index() >= 0 && r.index() < rerank.documents().size()) {
                    producedPassages.add(Texts.norm(rerank.documents().get(r.index())));
                }
            }
        }
        consumedQueries.remove("");
        producedQueries.remove("");
        assertThat(signals.producedQueries).containsExactlyElementsOf(producedQueries);
        assertThat(signals.consumedQueries).containsExactlyElementsOf(consumedQueries);
        assertThat(signals.producedVectors).containsExactlyElementsOf(producedVectors);
        assertThat(signals.producedPassages).containsExactlyElementsOf(producedPassages);
        assertThat(signals.consumedPassages).containsExactlyElementsOf(consumedPassages);
        // what the linker asks of them: equal as sets, no null among them
        assertThat(signals.consumedQueries).isEqualTo(consumedQueries);
        assertThat(signals.consumedQueries.contains(null)).isFalse();
        assertThat(signals.producedQueries.contains(null)).isFalse();
        assertThat(signals.consumedPassages.contains(null)).isFalse();
    }

    private static List<String> streamedIds(List<ClassifiedCall> ordered, Stage stage) {
        return ordered.stream().filter(c -> c.stage() == stage).map(c -> c.event().eventId()).toList();
    }

    private static String plainRunId(String pipeline, String runHint, String anchorEventId) throws Exception {
        String basis = runHint != null && !runHint.isBlank()
                ? pipeline + "\u001fhint\u001f" + runHint
                : pipeline + "\u001fcall\u001f" + anchorEventId;
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(basis.getBytes(StandardCharsets.UTF_8));
        return "run-" + HexFormat.of().formatHex(digest, 0, 12);
    }

    private static String plainContentId(String normalised) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-1").digest(normalised.getBytes(StandardCharsets.UTF_8));
        return "sha1:" + HexFormat.of().formatHex(digest, 0, 8);
    }

    private static List<String> listedPromptParts(List<ChatMessage> messages) {
        List<String> contents = new ArrayList<>();
        for (ChatMessage m : messages) {
            String content = m.content() == null ? "" : m.content();
            if (contents.isEmpty() && content.isEmpty()) {
                continue;
            }
            contents.add(content);
        }
        return contents;
    }

    private static String joinedPromptText(List<ChatMessage> messages) {
        List<String> parts = listedPromptParts(messages);
        return parts.size() == 1 ? parts.get(0) : String.join(ChatDetail.PROMPT_SEPARATOR, parts);
    }
}
