package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.raglog.schemas.Json;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tier gate on a bundle whose models are fixed by hand ({@link FixedBundles#withGate}): every stage's gate
 * probability is {@code P_AT_ZERO} (0.498), {@code P_AT_HALF} (0.692) or {@code P_AT_ONE} (0.769) as the run's
 * {@code cheap.<stage>} feature is 0, 0.5 or 1. With bounds 0.6 / 0.75: 0.498 is clearly healthy, 0.769 clearly
 * faulty, 0.692 in between.
 */
class TierGateTest {

    private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");
    private static final Set<Stage> ALL = EnumSet.allOf(Stage.class);

    private static ModelBundle bundle() {
        return FixedBundles.withGate(FixedBundles.thresholds(0.5, 0.5, 0.5, 0.5, 0.5),
                FixedBundles.sameBounds(0.6, 0.75));
    }

    /** A run whose stages' cheap features are the given values (0 for the others), x = 1 for the stage models. */
    private static ScoringInput run(Set<Stage> present, Map<Stage, Double> cheap, String tier) {
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("x", 1.0);
        for (Stage stage : Stage.values()) {
            values.put(FixedBundles.cheapFeature(stage), cheap.getOrDefault(stage, 0.0));
        }
        RunFeatures base = FixedBundles.features("run-1", 1.0, null);
        RunFeatures f = new RunFeatures(base.schema(), base.runId(), base.pipeline(), base.question(),
                base.featureListVersion(), values, tier == null ? base.llm()
                        : new LlmUsage(0, 0, 0, 0.0, false, List.of(), FixedBundles.JUDGE, tier), null, List.of());
        return new ScoringInput(f, present, "answer");
    }

    @Test
    void shouldComputeTheFixedGateProbabilitiesOnPaper() {
        try (ModelBundle b = bundle()) {
            TierGate gate = b.tierGate().orElseThrow();
            TierGate.Decision d = gate.decide(run(ALL, Map.of(Stage.RETRIEVE, 1.0, Stage.GENERATE, 0.5), null));
            assertThat(d.probability().get(Stage.REWRITE)).isCloseTo(FixedBundles.P_AT_ZERO, within(1e-6));
            assertThat(d.probability().get(Stage.RETRIEVE)).isCloseTo(FixedBundles.P_AT_ONE, within(1e-6));
            assertThat(d.probability().get(Stage.GENERATE)).isCloseTo(FixedBundles.P_AT_HALF, within(1e-6));
        }
    }

    @Test
    void shouldSkipARunWhoseStagesAreAllClearlyHealthy() {
        try (ModelBundle b = bundle()) {
            TierGate.Decision d = b.tierGate().orElseThrow().decide(run(ALL, Map.of(), null));
            assertThat(d.skip()).isTrue();
            assertThat(d.tier()).isEqualTo(LlmUsage.TIER_SKIPPED);
            assertThat(d.flagged()).isEmpty();
        }
    }

    @Test
    void shouldSkipARunWithOneClearlyFaultyStageAndFlagIt() {
        try (ModelBundle b = bundle()) {
            TierGate.Decision d = b.tierGate().orElseThrow().decide(run(ALL, Map.of(Stage.RERANK, 1.0), null));
            assertThat(d.skip()).isTrue();
            assertThat(d.flagged()).containsExactly(Stage.RERANK);
        }
    }

    @Test
    void shouldCheckARunWithAStageInBetweenOrTwoClearlyFaulty() {
        try (ModelBundle b = bundle()) {
            TierGate gate = b.tierGate().orElseThrow();
            TierGate.Decision between = gate.decide(run(ALL, Map.of(Stage.EMBED, 0.5), null));
            assertThat(between.skip()).isFalse();
            assertThat(between.tier()).isEqualTo(LlmUsage.TIER_CHECKED);
            assertThat(between.flagged()).isEmpty();
            assertThat(gate.decide(run(ALL, Map.of(Stage.EMBED, 1.0, Stage.GENERATE, 1.0), null)).skip()).isFalse();
        }
    }

    @Test
    void shouldIgnoreStagesTheRunDidNotHave() {
        try (ModelBundle b = bundle()) {
            Set<Stage> noRewrite = EnumSet.complementOf(EnumSet.of(Stage.REWRITE));
            TierGate.Decision d = b.tierGate().orElseThrow()
                    .decide(run(noRewrite, Map.of(Stage.REWRITE, 0.5), null));
            assertThat(d.skip()).isTrue();
            assertThat(d.probability()).doesNotContainKey(Stage.REWRITE);
        }
    }

    @Test
    void shouldApplyTheBoundsExactlyAtTheirEdges() {
        Map<Stage, TierGate.Bounds> bounds = FixedBundles.sameBounds(0.3, 0.7);
        Map<Stage, Double> p = new java.util.EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            p.put(stage, 0.1);
        }
        p.put(Stage.EMBED, 0.3); // not below healthy_below: in between
        assertThat(TierGate.decide(p, ALL, bounds).skip()).isFalse();
        p.put(Stage.EMBED, 0.7); // at faulty_from: clearly faulty
        assertThat(TierGate.decide(p, ALL, bounds).flagged()).containsExactly(Stage.EMBED);
        assertThat(TierGate.decide(p, Set.of(), bounds).skip()).as("nothing present, nothing decided").isFalse();
    }

    @Test
    void shouldScoreASkippedRunWithTheGateAndACheckedOneWithTheStageModels() {
        try (ModelBundle b = bundle()) {
            Scorer scorer = new Scorer(b);
            Verdict skipped = scorer.score(run(ALL, Map.of(Stage.RETRIEVE, 1.0), LlmUsage.TIER_SKIPPED), AT);
            assertThat(skipped.flaggedStages()).containsExactly(Stage.RETRIEVE);
            assertThat(skipped.stages().retrieve().probability()).isCloseTo(FixedBundles.P_AT_ONE, within(1e-6));
            assertThat(skipped.stages().retrieve().threshold()).isEqualTo(0.75);
            assertThat(skipped.stages().embed().probability()).isCloseTo(FixedBundles.P_AT_ZERO, within(1e-6));
            assertThat(skipped.llm().calls()).isZero();
            assertThat(skipped.llm().tier()).isEqualTo(LlmUsage.TIER_SKIPPED);

            // checked (or untiered): the stage models at x = 1 against the thresholds of 0.5 flag every stage
            Verdict checked = scorer.score(run(ALL, Map.of(Stage.RETRIEVE, 1.0), LlmUsage.TIER_CHECKED), AT);
            // every stage the bundle scores: it was trained before context assembly, which stays unscored
            assertThat(checked.flaggedStages()).containsExactlyElementsOf(EnumSet.complementOf(EnumSet.of(Stage.ASSEMBLE)));
            assertThat(checked.stages().embed().probability()).isCloseTo(FixedBundles.P_AT_ONE, within(1e-6));
            assertThat(checked.stages().embed().threshold()).isEqualTo(0.5);
        }
    }

    @Test
    void shouldKeepTheGateThroughSaveAndLoad(@TempDir Path dir) {
        try (ModelBundle b = bundle()) {
            b.save(dir);
            assertThat(dir.resolve("retrieve.gate.models.json")).exists();
            assertThat(dir.resolve("retrieve.gate.xgboost.ubj")).exists();
            try (ModelBundle loaded = ModelBundle.load(dir)) {
                assertThat(loaded.id()).isEqualTo(b.id());
                assertThat(loaded.tierGate()).isPresent();
                assertThat(loaded.tierGate().get().bounds()).isEqualTo(b.tierGate().get().bounds());
                ScoringInput input = run(ALL, Map.of(Stage.GENERATE, 1.0), LlmUsage.TIER_SKIPPED);
                assertThat(new Scorer(loaded).score(input, AT)).isEqualTo(new Scorer(b).score(input, AT));
            }
        }
    }

    @Test
    void shouldLoadABundleWrittenBeforeGatesExistedUnderItsOldId(@TempDir Path dir) throws Exception {
        try (ModelBundle plain = FixedBundles.withThresholds(FixedBundles.thresholds(0.5, 0.5, 0.5, 0.5, 0.5))) {
            plain.save(dir);
            // what a writer from before tier gates wrote: no tier_gate key at all
            Path manifest = dir.resolve(ModelBundle.MANIFEST);
            var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(manifest.toFile());
            assertThat(tree.has("tier_gate")).isTrue();
            tree.remove("tier_gate");
            Files.writeString(manifest, Json.MAPPER.writeValueAsString(tree));
            try (ModelBundle loaded = ModelBundle.load(dir)) {
                assertThat(loaded.id()).isEqualTo(plain.id());
                assertThat(loaded.tierGate()).isEmpty();
                // a run marked skipped by a job whose bundle had a gate is still scored, by the stage models
                Verdict v = new Scorer(loaded).score(run(ALL, Map.of(), LlmUsage.TIER_SKIPPED), AT);
                assertThat(v.stages().embed().threshold()).isEqualTo(0.5);
            }
        }
    }

    @Test
    void shouldChangeTheIdWhenOnlyTheBoundsChange() {
        try (ModelBundle a = bundle();
                ModelBundle b = FixedBundles.withGate(FixedBundles.thresholds(0.5, 0.5, 0.5, 0.5, 0.5),
                        FixedBundles.sameBounds(0.55, 0.75));
                ModelBundle plain = FixedBundles.withThresholds(FixedBundles.thresholds(0.5, 0.5, 0.5, 0.5, 0.5))) {
            assertThat(a.id()).isNotEqualTo(b.id()).isNotEqualTo(plain.id());
        }
    }
}
