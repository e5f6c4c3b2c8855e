package io.raglog.score.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.PipelineThresholds;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.schemas.ThresholdsUsed;
import io.raglog.schemas.Verdict;
import io.raglog.score.ModelBundle;
import io.raglog.score.ScoringInput;
import io.raglog.score.Scorer;
import io.raglog.score.TestBundles;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithNonKeyedOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScoreRunsFunctionTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void shouldTurnEachRunsFeaturesIntoTheVerdictTheScorerGives(@TempDir Path dir) throws Exception {
        List<ScoringInput> inputs = TestBundles.scoringInputs(20, 31);
        try (ModelBundle bundle = TestBundles.fixedBundle()) {
            bundle.save(dir);
            ScoreRunsFunction function = new ScoreRunsFunction(BundleLocation.directory(dir),
                    Clock.fixed(NOW, ZoneOffset.UTC));
            try (var harness = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(function,
                    ScoreRunsFunction.OVERRIDES)) {
                for (ScoringInput input : inputs) {
                    harness.processElement(new StreamRecord<>(input, 1L));
                }
                List<Verdict> verdicts = harness.extractOutputValues();
                assertThat(verdicts).hasSize(inputs.size());
                Scorer direct = new Scorer(bundle);
                for (int i = 0; i < inputs.size(); i++) {
                    assertThat(verdicts.get(i)).isEqualTo(direct.score(inputs.get(i), NOW));
                    assertThat(verdicts.get(i).modelBundle()).isEqualTo(bundle.id());
                    assertThat(verdicts.get(i).scoredAt()).isEqualTo(NOW);
                    assertThat(verdicts.get(i).thresholds()).isEqualTo(ThresholdsUsed.bundle(bundle.id()));
                }
            }
        }
    }

    @Test
    void shouldWarnOnceAndKeepScoringWhenTheFeaturesComeFromAnotherJudge(@TempDir Path dir) throws Exception {
        try (ModelBundle bundle = TestBundles.fixedBundle()) {
            bundle.save(dir);
            ScoringInput input = TestBundles.scoringInputs(1, 32).get(0);
            RunFeatures f = input.features();
            RunFeatures otherJudge = new RunFeatures(f.schema(), f.runId(), f.pipeline(), f.question(),
                    f.featureListVersion(), f.features(),
                    new LlmUsage(5, 2000, 200, 0.002, false, List.of(), "anthropic:claude-haiku"), f.evidenceFlow(),
                    f.findings());
            List<String> warnings = new CopyOnWriteArrayList<>();
            Logger logger = (Logger) LogManager.getLogger(ScoreRunsFunction.class);
            AbstractAppender capture = new AbstractAppender("capture-judge-warning", null, null, true,
                    Property.EMPTY_ARRAY) {
                @Override
                public void append(LogEvent event) {
                    if (event.getLevel() == Level.WARN) {
                        warnings.add(event.getMessage().getFormattedMessage());
                    }
                }
            };
            capture.start();
            Level level = logger.getLevel();
            logger.addAppender(capture);
            logger.setLevel(Level.WARN);
            try (var harness = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                    new ScoreRunsFunction(BundleLocation.directory(dir)), ScoreRunsFunction.OVERRIDES)) {
                harness.processElement(new StreamRecord<>(
                        new ScoringInput(otherJudge, EnumSet.allOf(Stage.class), "x"), 1L));
                harness.processElement(new StreamRecord<>(
                        new ScoringInput(otherJudge, EnumSet.allOf(Stage.class), "x"), 2L));
                assertThat(harness.extractOutputValues()).hasSize(2)
                        .allSatisfy(v -> assertThat(v.llm().judge()).isEqualTo("anthropic:claude-haiku"));
            } finally {
                logger.removeAppender(capture);
                logger.setLevel(level);
            }
            // loud, but once per judge rather than once per run
            assertThat(warnings).singleElement().asString()
                    .contains("JUDGE MISMATCH", "anthropic:claude-haiku", "offline-judge/v1", bundle.id());
        }
    }

    private static PipelineThresholds override(String pipeline, long version, String bundleId,
            Map<Stage, Double> thresholds) {
        return PipelineThresholds.of(pipeline, version, bundleId, thresholds,
                new PipelineThresholds.Basis(200, 0.05, PipelineThresholds.SOURCE_REVIEWS), NOW);
    }

    /** The first of the fixed inputs, as a run of {@code pipeline}. */
    private static ScoringInput runOf(String pipeline, String runId) {
        ScoringInput input = TestBundles.scoringInputs(1, 33).get(0);
        RunFeatures f = input.features();
        return new ScoringInput(new RunFeatures(f.schema(), runId, pipeline, f.question(), f.featureListVersion(),
                f.features(), f.llm(), f.evidenceFlow(), f.findings()), input.present(), input.answer());
    }

    private static BroadcastOperatorTestHarness<ScoringInput, PipelineThresholds, Verdict> harness(Path dir)
            throws Exception {
        return ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new ScoreRunsFunction(BundleLocation.directory(dir), Clock.fixed(NOW, ZoneOffset.UTC)),
                ScoreRunsFunction.OVERRIDES);
    }

    @Test
    void shouldScoreThePipelinesNextRunsWithItsOverrideAndTheBundleForTheRestAndOtherPipelines(@TempDir Path dir)
            throws Exception {
        try (ModelBundle bundle = TestBundles.fixedBundle()) {
            bundle.save(dir);
            try (var harness = harness(dir)) {
                harness.processElement(new StreamRecord<>(runOf("support-bot", "before"), 1L));
                harness.processBroadcastElement(new StreamRecord<>(
                        override("support-bot", 1, bundle.id(), Map.of(Stage.GENERATE, 0.0)), 2L));
                harness.processElement(new StreamRecord<>(runOf("support-bot", "after"), 3L));
                harness.processElement(new StreamRecord<>(runOf("docs-qa", "other-pipeline"), 4L));

                List<Verdict> verdicts = harness.extractOutputValues();
                assertThat(verdicts).extracting(Verdict::runId).containsExactly("before", "after", "other-pipeline");
                Verdict before = verdicts.get(0);
                Verdict after = verdicts.get(1);
                Verdict other = verdicts.get(2);
                assertThat(before.thresholds()).isEqualTo(ThresholdsUsed.bundle(bundle.id()));
                assertThat(before.stages().generate().threshold()).isEqualTo(0.5);
                assertThat(after.thresholds()).isEqualTo(new ThresholdsUsed("support-bot/v1", "reviews",
                        Map.of("generate", 0.5)));
                assertThat(after.stages().generate().threshold()).isEqualTo(0.0);
                assertThat(after.stages().generate().flagged()).isTrue();
                assertThat(after.stages().retrieve().threshold()).isEqualTo(0.5); // not overridden: the bundle's
                assertThat(other.thresholds()).isEqualTo(ThresholdsUsed.bundle(bundle.id()));
                assertThat(other.stages().generate().threshold()).isEqualTo(0.5);
            }
        }
    }

    @Test
    void shouldIgnoreAnOverrideForAnotherBundleAndAnOlderVersion(@TempDir Path dir) throws Exception {
        try (ModelBundle bundle = TestBundles.fixedBundle()) {
            bundle.save(dir);
            try (var harness = harness(dir)) {
                harness.processBroadcastElement(new StreamRecord<>(
                        override("support-bot", 7, "some-other-bundle@1", Map.of(Stage.GENERATE, 0.0)), 1L));
                assertThat(harness.getBroadcastState(ScoreRunsFunction.OVERRIDES).contains("support-bot")).isFalse();

                harness.processBroadcastElement(new StreamRecord<>(
                        override("support-bot", 2, bundle.id(), Map.of(Stage.GENERATE, 0.2)), 2L));
                harness.processBroadcastElement(new StreamRecord<>(
                        override("support-bot", 1, bundle.id(), Map.of(Stage.GENERATE, 0.9)), 3L));
                harness.processElement(new StreamRecord<>(runOf("support-bot", "run"), 4L));

                Verdict verdict = harness.extractOutputValues().get(0);
                assertThat(verdict.thresholds().version()).isEqualTo("support-bot/v2");
                assertThat(verdict.stages().generate().threshold()).isEqualTo(0.2);
            }
        }
    }

    @Test
    void shouldKeepTheOverridesInForceAcrossASnapshotAndRestore(@TempDir Path dir) throws Exception {
        try (ModelBundle bundle = TestBundles.fixedBundle()) {
            bundle.save(dir);
            OperatorSubtaskState snapshot;
            try (var harness = harness(dir)) {
                harness.processBroadcastElement(new StreamRecord<>(
                        override("support-bot", 3, bundle.id(), Map.of(Stage.RETRIEVE, 0.3)), 1L));
                snapshot = harness.snapshot(1L, 1L);
            }
            ScoreRunsFunction restored = new ScoreRunsFunction(BundleLocation.directory(dir),
                    Clock.fixed(NOW, ZoneOffset.UTC));
            try (var harness = new BroadcastOperatorTestHarness<>(
                    new CoBroadcastWithNonKeyedOperator<>(restored, List.of(ScoreRunsFunction.OVERRIDES)), 1, 1, 0)) {
                harness.setup();
                harness.initializeState(snapshot);
                harness.open();
                harness.processElement(new StreamRecord<>(runOf("support-bot", "after-restore"), 2L));

                Verdict verdict = harness.extractOutputValues().get(0);
                assertThat(verdict.thresholds()).isEqualTo(new ThresholdsUsed("support-bot/v3", "reviews",
                        Map.of("retrieve", 0.5)));
                assertThat(verdict.stages().retrieve().threshold()).isEqualTo(0.3);
            }
        }
    }
}
