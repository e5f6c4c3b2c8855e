package io.raglog.training;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Finding;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.score.ScoringInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Labeled runs made up for the tests, shaped like the checks' output: every feature of {@link FeatureList} by
 * name, missing for absent stages; about half the runs sound, the rest with one faulty stage whose own features
 * shift most of the time (signal) over noise everywhere. The lexical rule features fire on a faulty stage only
 * part of the time and now and then on a sound one, so rules alone are imperfect; rewrite and embed faults often
 * still answer correctly, retrieval and rerank faults rarely, as in the RAGLog paper. A rerank fault leaves the
 * needed piece only in dropped passages and confuses the judge's retrieval check half the time, so the
 * reassignment rule has work to do. A few runs are degraded (their LLM features missing).
 */
final class SyntheticRuns {

    static final String JUDGE = "offline-judge/v1";

    private static final List<String> RULE_TRIGGERS = List.of(FeatureList.REWRITE_LOST_NAMES,
            FeatureList.REWRITE_LOST_NUMBERS, FeatureList.REWRITE_LOST_DATES, FeatureList.EMBED_LOST_KEY_TERMS,
            FeatureList.EMBED_NEAR_MISS_WORDS, FeatureList.RETRIEVE_KEY_TERMS_MISSING,
            FeatureList.RERANK_KEY_TERMS_LOST, FeatureList.GENERATE_UNSUPPORTED_NUMBERS,
            FeatureList.GENERATE_UNSUPPORTED_NAMES, FeatureList.GENERATE_WRONG_KIND);

    private final Random random;
    private final long seed;

    private SyntheticRuns(long seed) {
        this.seed = seed;
        this.random = new Random(seed);
    }

    static List<LabeledRun> generate(int runs, long seed) {
        SyntheticRuns g = new SyntheticRuns(seed);
        List<LabeledRun> out = new ArrayList<>(runs);
        for (int i = 0; i < runs; i++) {
            out.add(g.run(i));
        }
        return out;
    }

    private LabeledRun run(int i) {
        String runId = "run-" + seed + "-" + i;
        Set<Stage> present = EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);
        if (random.nextDouble() < 0.6) {
            present.add(Stage.REWRITE);
        }
        if (random.nextDouble() < 0.7) {
            present.add(Stage.RERANK);
        }
        Stage fault = null;
        if (random.nextDouble() < 0.5) {
            List<Stage> candidates = new ArrayList<>(present);
            fault = candidates.get(random.nextInt(candidates.size()));
        }
        boolean degraded = random.nextDouble() < 0.05;

        Map<String, Double> features = new LinkedHashMap<>();
        for (FeatureList.Feature f : FeatureList.all()) {
            Double value = null;
            if (present.contains(f.stage()) && !(degraded && f.kind() == FeatureList.Kind.LLM)) {
                boolean signal = f.stage() == fault && random.nextDouble() < 0.7;
                value = value(f, signal);
            }
            features.put(f.name(), value);
        }
        if (fault == Stage.RERANK && !degraded && random.nextDouble() < 0.5) {
            features.put(FeatureList.LLM_RETRIEVE_FAULT, clamp(60 + 20 * random.nextGaussian(), 0, 100));
            features.put(FeatureList.LLM_RETRIEVE_NO_ANSWER, clamp(60 + 20 * random.nextGaussian(), 0, 100));
        }

        List<Finding> findings = new ArrayList<>();
        if (fault == Stage.REWRITE && value(features, FeatureList.REWRITE_LOST_DATES) >= 1) {
            findings.add(new Finding(Stage.REWRITE, "rewrite.lost_terms", "rewrite dropped the date '2023'"));
        }
        EvidenceFlow flow = degraded ? null : flow(fault);
        RunFeatures runFeatures = new RunFeatures(RunFeatures.SCHEMA_V1, runId, "support-bot",
                "What was the operating cash flow in 2023?", FeatureList.VERSION, features,
                new LlmUsage(degraded ? 4 : 5, 0, 0, 0.0, degraded, degraded ? List.of("support") : List.of(), JUDGE),
                flow, findings);

        boolean answerCorrect = random.nextDouble() < correctAnswerChance(fault);
        LabelStages stages = new LabelStages(label(Stage.REWRITE, present, fault), label(Stage.EMBED, present, fault),
                label(Stage.RETRIEVE, present, fault), label(Stage.RERANK, present, fault),
                label(Stage.ASSEMBLE, present, fault), label(Stage.GENERATE, present, fault));
        String profile = List.of("openai-qdrant-cohere", "tei-pinecone-anthropic", "ollama-chroma-jina")
                .get(i % 3);
        Label label = new Label(SchemaIds.LABEL_V1, runId, "support-bot", profile, "q-" + i,
                "What was the operating cash flow in 2023?", null, "evt-" + i, stages,
                fault == null ? null : fault.id(), fault == null ? null : fault.id() + ".synthetic",
                fault == null ? null : Label.ORIGIN_INJECTED, null, answerCorrect, true, "$4.1bn",
                answerCorrect ? "$4.1bn." : "I don't know.", List.of("doc-7#2"), Instant.EPOCH);
        return new LabeledRun(new ScoringInput(runFeatures, present, label.answer()), label);
    }

    private double value(FeatureList.Feature f, boolean signal) {
        String name = f.name();
        if (name.equals(FeatureList.REWRITE_OPPOSITE_IN_PLACE) || name.equals(FeatureList.GENERATE_SWAPPED_IN_PLACE)) {
            // a sure sign (an opposite written in place, a swapped fact): a few faulty stages, no sound one (a rule
            // flags the stage on it)
            return random.nextDouble() < (signal ? 0.2 : 0.0) ? 1.0 : 0.0;
        }
        if (RULE_TRIGGERS.contains(name)) {
            // Lexical rules: fire on about half the faulty stages, and on a few sound ones.
            return random.nextDouble() < (signal ? 0.75 : 0.03) ? 1.0 + random.nextInt(2) : 0.0;
        }
        if (f.kind() == FeatureList.Kind.LLM && !name.contains("share") && !name.endsWith("statements")
                && !name.endsWith("pieces")) {
            return clamp(signal ? 70 + 18 * random.nextGaussian() : 12 + 12 * random.nextGaussian(), 0, 100);
        }
        if (name.contains("share") || name.contains("coverage") || name.contains("ratio")) {
            return clamp(signal ? 0.55 + 0.2 * random.nextGaussian() : 0.08 + 0.08 * random.nextGaussian(), 0, 1);
        }
        if (name.contains("similar") || name.contains("_sim") || name.contains("correlation")
                || name.contains("tau")) {
            return clamp(signal ? 0.45 + 0.12 * random.nextGaussian() : 0.72 + 0.08 * random.nextGaussian(), -1, 1);
        }
        // counts and 0/1 flags
        return signal ? 2.0 + random.nextInt(4) : (random.nextDouble() < 0.15 ? 1.0 : 0.0) + random.nextInt(2);
    }

    private static double value(Map<String, Double> features, String name) {
        Double v = features.get(name);
        return v == null ? 0 : v;
    }

    private EvidenceFlow flow(Stage fault) {
        EvidenceLocation location = EvidenceLocation.IN_CONTEXT;
        AnswerUse use = AnswerUse.INCLUDED;
        List<String> passages = List.of("doc-7#2");
        if (fault == Stage.RERANK) {
            location = EvidenceLocation.ONLY_DROPPED;
            use = AnswerUse.OMITTED;
        } else if (fault == Stage.RETRIEVE || fault == Stage.EMBED && random.nextBoolean()) {
            location = EvidenceLocation.NOWHERE;
            use = AnswerUse.OMITTED;
            passages = List.of();
        } else if (fault == Stage.GENERATE) {
            use = random.nextBoolean() ? AnswerUse.OMITTED : AnswerUse.CONTRADICTED;
        }
        return new EvidenceFlow(List.of(new EvidencePiece("operating cash flow in 2023", location, use, passages)));
    }

    private static double correctAnswerChance(Stage fault) {
        if (fault == null) {
            return 0.95;
        }
        return switch (fault) {
            case REWRITE, EMBED -> 0.6;
            case RETRIEVE, RERANK, ASSEMBLE -> 0.1;
            case GENERATE -> 0.2;
        };
    }

    private static Integer label(Stage stage, Set<Stage> present, Stage fault) {
        if (!present.contains(stage)) {
            return null;
        }
        return stage == fault ? 1 : 0;
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
