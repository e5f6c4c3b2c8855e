package io.raglog.score.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
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
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.flink.streaming.api.operators.StreamMap;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
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
            try (var harness = new OneInputStreamOperatorTestHarness<>(new StreamMap<>(function))) {
                harness.open();
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
            try (var harness = new OneInputStreamOperatorTestHarness<>(
                    new StreamMap<>(new ScoreRunsFunction(BundleLocation.directory(dir))))) {
                harness.open();
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
}
