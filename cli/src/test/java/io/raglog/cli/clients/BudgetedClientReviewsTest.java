package io.raglog.cli.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.job.DefaultBundle;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Review;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageReview;
import io.raglog.schemas.Verdict;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import io.raglog.score.ScoringInput;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.AnswerMatch;
import io.raglog.training.LabeledRun;
import io.raglog.training.ThresholdSuggester;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team's reviews fit the shipped bundle to a pipeline unlike the simulator's: the LangChain.js client whose own code
 * cuts its prompt's context at 700 characters loses the answer to that budget in about one run in six, and its
 * retriever misses more than the simulator's mix taught the bundle to expect. A reviewer labels the client's first
 * runs stage by stage in the debugging queue (here: from where the answer went, as a person reading the run's
 * passages would), {@code raglog thresholds} suggests the pipeline's thresholds from those reviews
 * ({@link ThresholdSuggester}), and the runs that follow, none of them reviewed, are scored with them.
 */
class BudgetedClientReviewsTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = JsRagClient.miniCluster();

    private static final int PASSAGES = Integer.getInteger("js.reviews.passages", 150);
    private static final int QUESTIONS = Integer.getInteger("js.reviews.questions", 300);
    private static final double MAX_RUN_FPR = 0.05;

    @TempDir
    Path dir;

    @BeforeAll
    static void install() throws Exception {
        JsRagClient.install();
    }

    @Test
    void shouldKeepTheLaterRunsWithinTheRunBudgetWithoutMissingMoreOnceTheFirstRunsAreReviewed() throws Exception {
        JsRagClient.Plan plan = JsRagClient.Plan.of(PASSAGES, QUESTIONS).withContextBudget(700);
        JsRagClient.Recording recording = JsRagClient.record("langchain-rag.mjs", "reviewed-langchain-js", plan, dir);
        JsRagClient.Replayed replayed = JsRagClient.replay(recording.calls(), dir);
        assertThat(replayed.verdicts()).hasSize(QUESTIONS);

        List<String> order = plan.questions().values().stream().map(Question::question).toList();
        List<LabeledRun> reviewed = new ArrayList<>();
        List<LabeledRun> later = new ArrayList<>();
        for (Verdict v : replayed.verdicts()) {
            Run run = replayed.runs().get(v.question());
            List<String> answers = plan.questionOf(v.question()).acceptableAnswers();
            // every question has its answer in the knowledge base: no gap
            Review review = Review.of(v, decisions(v, truth(run, answers)), v.knowledgeGap().flagged()
                    ? StageReview.REJECTED : StageReview.SOUND, AnswerMatch.contains(run.stages().generate().answer(),
                            answers), "reviewer", null, Instant.now());
            LabeledRun labeled = new LabeledRun(ScoringInput.of(run, replayed.features().get(v.runId())),
                    review.toLabel());
            (order.indexOf(v.question()) < QUESTIONS / 2 ? reviewed : later).add(labeled);
        }

        try (ModelBundle shipped = DefaultBundle.load()) {
            ThresholdSuggester.Suggestion suggestion = ThresholdSuggester.suggest(shipped, reviewed, MAX_RUN_FPR);
            // retrieval's misses, which the shipped threshold once let by on this client, are never traded away
            assertThat(suggestion.stages().get(Stage.RETRIEVE.id()).suggested())
                    .as("retrieval's threshold from the reviews:%n%s", suggestion.toTable())
                    .isLessThanOrEqualTo(shipped.threshold(Stage.RETRIEVE));
            try (ModelBundle tuned = shipped.withThresholds(suggestion.thresholds(), "reviews of the first runs")) {
                Outcomes before = Outcomes.of(new Scorer(shipped), later);
                Outcomes after = Outcomes.of(new Scorer(tuned), later);
                String told = "on the later runs, shipped thresholds: " + before + "; from the reviews: " + after;
                // 300 questions over 150 passages, bundle a2dc2d0b292c: retrieval 4 -> 4 of the 10 later runs it
                // missed (bundles dba4532bb442 and 92f0367225b9 caught 1 and 3 with their own thresholds, and their
                // reviews lowered retrieval's to catch 5 and 4), assembly 10 -> 10 of the 29 whose answer the budget
                // cut, generation 19 -> 22 of 55 for one more sound run flagged, 2 -> 3 of 93 (8a9fca18a13a:
                // generation 17 -> 17, 3 -> 3; d0fc8b5a91b7: generation 19 -> 20 for one more sound run, 3 -> 4, the
                // budget's 4; 5e926e704c09: generation 20 -> 7, 4 -> 3). Before
                // the search stopped spending false flags on sound runs already flagged, it lowered assembly's
                // threshold to 0.08 at no cost on the reviewed runs, and flagged 10 of the 93; before it counted the
                // flags the assembly rule moves onto runs already flagged, to 0.22, and flagged 6.
                assertThat(after.caught(Stage.RETRIEVE)).as(told)
                        .isGreaterThanOrEqualTo(before.caught(Stage.RETRIEVE));
                assertThat(after.caught(Stage.ASSEMBLE)).as(told).isGreaterThanOrEqualTo(before.caught(Stage.ASSEMBLE));
                assertThat(after.soundRunsFlagged()).as(told)
                        .isLessThanOrEqualTo((int) Math.floor(MAX_RUN_FPR * after.soundRuns()));
                // a sound run the reviews add to the queue is paid for by a fault they catch
                assertThat(after.soundRunsFlagged() - before.soundRunsFlagged()).as(told)
                        .isLessThanOrEqualTo(Math.max(0, after.caught() - before.caught()));
            }
        }
    }

    /**
     * Per present stage, faulty or not, from where the answer went, as the simulator labels its runs: a stage is
     * faulty when the answer reached it and did not leave it, and the generator also when it answered from a prompt
     * that did not hold the answer instead of saying so (what a reviewer reading the run would find).
     */
    private static Map<Stage, Boolean> truth(Run run, List<String> answers) {
        boolean retrieved = run.stages().retrieve().passages().stream().anyMatch(p -> holds(p, answers));
        boolean handedOn = run.stages().rerank().output().stream().anyMatch(p -> holds(p, answers));
        boolean prompted = AnswerMatch.contains(run.stages().generate().prompt(), answers);
        String answer = run.stages().generate().answer();
        boolean answered = AnswerMatch.contains(answer, answers);
        Map<Stage, Boolean> truth = new EnumMap<>(Stage.class);
        truth.put(Stage.REWRITE, false);
        truth.put(Stage.EMBED, false);
        truth.put(Stage.RETRIEVE, !retrieved);
        truth.put(Stage.RERANK, retrieved && !handedOn);
        truth.put(Stage.ASSEMBLE, handedOn && !prompted);
        truth.put(Stage.GENERATE, prompted ? !answered : !answer.equals(StandInApis.REFUSAL));
        return truth;
    }

    private static boolean holds(Passage p, List<String> answers) {
        return AnswerMatch.contains(p.text(), answers);
    }

    private static Map<Stage, StageReview> decisions(Verdict v, Map<Stage, Boolean> truth) {
        Map<Stage, StageReview> out = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            if (v.stages().get(stage).present()) {
                boolean flagged = v.stages().get(stage).flagged();
                out.put(stage, truth.get(stage) ? (flagged ? StageReview.CONFIRMED : StageReview.ADDED)
                        : (flagged ? StageReview.REJECTED : StageReview.SOUND));
            }
        }
        return out;
    }

    /** The stages' decisions on labeled runs: per stage faults caught, faults missed and false flags. */
    private record Outcomes(Map<Stage, int[]> byStage, int soundRuns, int soundRunsFlagged) {

        private static final int CAUGHT = 0;
        private static final int FALSE = 1;
        private static final int MISSED = 2;

        static Outcomes of(Scorer scorer, List<LabeledRun> runs) {
            Map<Stage, int[]> byStage = new EnumMap<>(Stage.class);
            int sound = 0;
            int soundFlagged = 0;
            for (LabeledRun r : runs) {
                Verdict v = scorer.score(r.input(), Instant.EPOCH);
                for (Stage stage : r.scoredStages()) {
                    boolean flagged = v.flaggedStages().contains(stage);
                    boolean faulty = r.faulty(stage);
                    int[] counts = byStage.computeIfAbsent(stage, k -> new int[3]);
                    if (flagged || faulty) {
                        counts[flagged && faulty ? CAUGHT : flagged ? FALSE : MISSED]++;
                    }
                }
                if (!r.label().faulty()) {
                    sound++;
                    soundFlagged += v.flaggedStages().isEmpty() ? 0 : 1;
                }
            }
            return new Outcomes(byStage, sound, soundFlagged);
        }

        int caught(Stage stage) {
            return byStage.getOrDefault(stage, new int[3])[CAUGHT];
        }

        /** Faulty stages flagged, over every stage. */
        int caught() {
            return byStage.values().stream().mapToInt(c -> c[CAUGHT]).sum();
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder();
            byStage.forEach((stage, c) -> s.append(stage.id()).append(' ').append(c[CAUGHT]).append(" of ")
                    .append(c[CAUGHT] + c[MISSED]).append(" caught, ").append(c[FALSE]).append(" false; "));
            return s.append("sound runs flagged ").append(soundRunsFlagged).append(" of ").append(soundRuns)
                    .toString();
        }
    }
}
