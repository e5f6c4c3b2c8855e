package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.assemble.AssemblySettings;
import io.raglog.assemble.RunLinker;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.checks.CheapChecks;
import io.raglog.checks.CheckedRun;
import io.raglog.checks.Embedder;
import io.raglog.checks.FeatureAssembler;
import io.raglog.flink.JacksonSerializer;
import io.raglog.ingest.CallEventDecoder;
import io.raglog.llm.LlmChecks;
import io.raglog.llm.LlmResult;
import io.raglog.llm.OfflineJudge;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import io.raglog.score.ScoringInput;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * Holds what raglog makes of a fixed simulated sample bit for bit, so that work on its speed cannot change a feature or
 * a verdict: the proxy calls go as wire bytes through the decoder, the classifier and the linker as the job runs them;
 * each run then through the rule checks and the vector checks (a deterministic stand-in embedder, so no model loads),
 * the offline judge, the feature assembly, the hand-over to the scoring task ({@code JacksonSerializer}) and the
 * shipped bundle's scorer. Each stage's output is written as JSON (every double in its shortest exact form) and
 * digested; the digests of every run are held in
 * {@code golden/simulated-runs.txt}, written from the code before the speed work (issue #27).
 *
 * <p>To write the file again after a change that is meant to change the output: run with
 * {@code -Draglog.golden.write=true} and commit the file with the change, saying why.
 */
class SimulatedRunsGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/simulated-runs.txt");

    @Test
    void shouldMakeTheSameRunsFeaturesAndVerdictsAsBefore() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.addAll(digests(SimulatorOptions.of("all", 300, 7)));
        lines.addAll(digests(SimulatorOptions.of("all", 120, 11)));
        if (Boolean.getBoolean("raglog.golden.write")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.write(GOLDEN, lines);
        }
        List<String> golden = Files.readAllLines(GOLDEN);
        assertThat(lines).as("runs, rule and vector features, LLM features, run features, verdicts")
                .hasSizeGreaterThan(300)
                .containsExactlyElementsOf(golden);
    }

    /** One line per run: its id and the digests of the run, its cheap checks, LLM checks, features and verdict. */
    private static List<String> digests(SimulatorOptions options) {
        MemorySink sink = new MemorySink();
        new Simulator(options).run(sink);
        List<CallEvent> calls = sink.calls();
        CallClassifier classifier = BuiltInAdapters.classifier();
        Map<String, List<ClassifiedCall>> byKey = new LinkedHashMap<>();
        for (CallEvent call : calls) {
            // as the job reads them: wire bytes decoded, then classified; calls outside a run never reach assembly
            CallEventDecoder.Decoded decoded = CallEventDecoder.decode(Json.writeBytes(call));
            assertThat(decoded.ok()).as(decoded.reason()).isTrue();
            if (classifier.classify(decoded.event()) instanceof Classification.Classified c
                    && c.call().stage() != null) {
                byKey.computeIfAbsent(c.call().runKey(), k -> new ArrayList<>()).add(c.call().forAssembly());
            }
        }
        Embedder embedder = new HashingEmbedder();
        CheapChecks cheap = new CheapChecks(embedder);
        CheapChecks rulesOnly = CheapChecks.rulesOnly();
        LlmChecks llm = new LlmChecks(new OfflineJudge(embedder), false);
        List<String> lines = new ArrayList<>();
        try (ModelBundle bundle = DefaultBundle.load()) {
            Scorer scorer = new Scorer(bundle);
            for (List<ClassifiedCall> pending : byKey.values()) {
                CallEvent first = pending.get(0).event();
                for (RunLinker.Assembled a : RunLinker.link(first.pipeline(), first.runHint(), pending,
                        Long.MAX_VALUE / 4, AssemblySettings.DEFAULTS)) {
                    Run run = a.run();
                    CheckedRun rules = rulesOnly.apply(run);
                    CheckedRun checked = cheap.apply(run);
                    LlmResult judged = llm.run(run).join();
                    RunFeatures features = FeatureAssembler.assemble(checked, judged.features(), judged.findings(),
                            judged.evidenceFlow(), judged.usage());
                    RunFeatures noVector = FeatureAssembler.assemble(rules, judged.features(), judged.findings(),
                            judged.evidenceFlow(), judged.usage());
                    // as the scoring task gets them: handed over from the checks' task (features packed, issue #27)
                    ScoringInput scored = handedOver(ScoringInput.of(run, features));
                    ScoringInput scoredNoVector = handedOver(ScoringInput.of(run, noVector));
                    lines.add(String.join(" ", run.runId(),
                            digest(Json.write(run), Json.write(a.consumedEventIds())),
                            digest(Json.write(rules.features()), Json.write(rules.findings())),
                            digest(Json.write(checked.features()), Json.write(checked.findings())),
                            digest(Json.write(judged)),
                            digest(Json.write(features), Json.write(noVector)),
                            digest(Json.write(scorer.score(scored, Instant.EPOCH)),
                                    Json.write(scorer.score(scoredNoVector, Instant.EPOCH)))));
                    assertThat(Json.write(scored.features())).as(run.runId()).isEqualTo(Json.write(features));
                    assertThat(Json.write(scoredNoVector.features())).as(run.runId())
                            .isEqualTo(Json.write(noVector));
                }
            }
        }
        return lines;
    }

    private static final JacksonSerializer<ScoringInput> HAND_OVER = new JacksonSerializer<>(ScoringInput.class);

    private static ScoringInput handedOver(ScoringInput input) {
        try {
            DataOutputSerializer out = new DataOutputSerializer(16 * 1024);
            HAND_OVER.serialize(input, out);
            return HAND_OVER.deserialize(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String digest(String... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                sha.update(part.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
