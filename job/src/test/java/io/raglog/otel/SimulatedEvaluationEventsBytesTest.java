package io.raglog.otel;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.CheapChecks;
import io.raglog.checks.FeatureAssembler;
import io.raglog.job.DefaultBundle;
import io.raglog.job.HashingEmbedder;
import io.raglog.job.SimulatedRuns;
import io.raglog.llm.LlmChecks;
import io.raglog.llm.LlmResult;
import io.raglog.llm.OfflineJudge;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TraceLink;
import io.raglog.schemas.Verdict;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import io.raglog.score.ScoringInput;
import io.raglog.simulator.SimulatorOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link EvaluationEvents} writes the same bytes as before issue #27 reused its pieces
 * ({@link EvaluationEventsBeforeIssue27}, udfs' tests) for the shipped bundle's verdicts on simulated runs (rule checks
 * and the offline judge, as {@code SimulatedRunsGoldenTest} scores them), each written as it came and again as if its
 * run had come in as OTLP spans (a trace, spans for some stages).
 */
class SimulatedEvaluationEventsBytesTest {

    @Test
    void shouldWriteTheSameBytesAsBeforeForTheSimulatedRunsVerdicts() {
        List<Verdict> verdicts = simulatedVerdicts();
        assertThat(verdicts).hasSizeGreaterThan(100)
                .anyMatch(Verdict::flagged)
                .anyMatch(v -> !v.flagged());
        int n = 0;
        for (Verdict verdict : verdicts) {
            EvaluationEventsBytesTest.assertSameBytes(verdict);
            EvaluationEventsBytesTest.assertSameBytes(verdict.withTrace(trace(n++)));
        }
    }

    private static TraceLink trace(int n) {
        Map<String, String> spans = new LinkedHashMap<>();
        for (Stage stage : Stage.values()) {
            if ((n + stage.ordinal()) % 3 != 0) {
                spans.put(stage.id(), String.format(Locale.ROOT, "%016x", 31L * n + stage.ordinal()));
            }
        }
        return new TraceLink(String.format(Locale.ROOT, "%032x", 1_000_003L * n), spans);
    }

    private static List<Verdict> simulatedVerdicts() {
        CheapChecks rules = CheapChecks.rulesOnly();
        LlmChecks llm = new LlmChecks(new OfflineJudge(new HashingEmbedder()), false);
        List<Verdict> verdicts = new ArrayList<>();
        try (ModelBundle bundle = DefaultBundle.load()) {
            Scorer scorer = new Scorer(bundle);
            for (Run run : SimulatedRuns.linked(SimulatorOptions.of("all", 150, 7))) {
                LlmResult judged = llm.run(run).join();
                RunFeatures features = FeatureAssembler.assemble(rules.apply(run), judged.features(),
                        judged.findings(), judged.evidenceFlow(), judged.usage());
                verdicts.add(scorer.score(ScoringInput.of(run, features),
                        Instant.parse("2026-12-01T08:30:00.123456789Z")));
            }
        }
        return verdicts;
    }
}
