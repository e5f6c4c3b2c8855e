package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import io.raglog.schemas.VerdictStages;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The evaluator's knowledge-gap counting on four runs worked out by hand. */
class KnowledgeGapTallyTest {

    private static final Set<Stage> PRESENT = EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);

    private static LabeledRun run(String id, LabelStages stages, boolean gap) {
        LabeledRun base = EvaluatorTest.labeled(id, PRESENT, stages, true, Map.of());
        Label l = base.label();
        Label label = new Label(SchemaIds.LABEL_V2, id, l.pipeline(), l.profile(), l.questionId(), l.question(),
                null, "evt", stages, null, null, null, null, true, !gap, gap ? null : "x", "x", List.of(),
                Instant.EPOCH, gap);
        return new LabeledRun(base.input(), label);
    }

    private static Verdict verdict(String id, List<Stage> flagged, boolean gap) {
        StageVerdict s = new StageVerdict(true, 0.1, 0.5, false, List.of(), null, null);
        KnowledgeGap g = gap ? new KnowledgeGap(true, 0.9, List.of("e"), "Add content about x.", false)
                : new KnowledgeGap(false, 0.1, List.of(), null, false);
        return new Verdict(Verdict.SCHEMA_V2, id, "support-bot", "q", "a",
                new VerdictStages(StageVerdict.absent(), s, s, StageVerdict.absent(), s), flagged, false, g,
                new LlmUsage(0, 0, 0, null, false, List.of(), "offline"), "bundle", Instant.EPOCH);
    }

    /**
     * <pre>
     * run  truth                     gap decided  flagged
     * a    gap only (all sound)      yes          -              TP gap; sound run, not flagged
     * b    gap + generate fault      no           generate       FN gap; faulty run
     * c    retrieval miss, no gap    yes          retrieve       FP gap; the miss still flagged
     * d    gap only                  yes          embed          TP gap; sound run still flagged
     * </pre>
     */
    @Test
    void shouldCountGapDecisionsAndTheGapOnlyRunsStillFlagged() {
        KnowledgeGapTally tally = new KnowledgeGapTally();
        List<LabeledRun> runs = List.of(run("a", new LabelStages(null, 0, 0, null, 0), true),
                run("b", new LabelStages(null, 0, 0, null, 1), true),
                run("c", new LabelStages(null, 0, 1, null, 0), false),
                run("d", new LabelStages(null, 0, 0, null, 0), true));
        List<Verdict> verdicts = List.of(verdict("a", List.of(), true),
                verdict("b", List.of(Stage.GENERATE), false),
                verdict("c", List.of(Stage.RETRIEVE), true),
                verdict("d", List.of(Stage.EMBED), true));
        for (int i = 0; i < runs.size(); i++) {
            tally.add(runs.get(i), runs.get(i).scoredStages(), verdicts.get(i));
        }
        KnowledgeGapReport report = tally.report();
        StageMetrics d = report.decisions();
        assertThat(List.of(d.truePositives(), d.falsePositives(), d.falseNegatives(), d.trueNegatives()))
                .containsExactly(2, 1, 1, 0);
        assertThat(d.f1()).isEqualTo(2.0 / 3);
        assertThat(report.gapOnlyRuns()).isEqualTo(2);
        assertThat(report.gapOnlyRunsFlagged()).isEqualTo(1);
    }
}
