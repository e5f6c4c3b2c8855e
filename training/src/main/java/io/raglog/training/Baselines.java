package io.raglog.training;

import static io.raglog.checks.FeatureList.ASSEMBLE_LOST_ANSWER_GAP;
import static io.raglog.checks.FeatureList.ASSEMBLE_LOST_ANSWER_MATCH;
import static io.raglog.checks.FeatureList.EMBED_LOST_KEY_TERMS;
import static io.raglog.checks.FeatureList.EMBED_NEAR_MISS_WORDS;
import static io.raglog.checks.FeatureList.EMBED_TRUNCATED;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_NAMES;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_NUMBERS;
import static io.raglog.checks.FeatureList.RERANK_KEY_TERMS_LOST;
import static io.raglog.checks.FeatureList.RETRIEVE_KEY_TERMS_MISSING;
import static io.raglog.checks.FeatureList.REWRITE_LOST_DATES;
import static io.raglog.checks.FeatureList.REWRITE_LOST_NAMES;
import static io.raglog.checks.FeatureList.REWRITE_LOST_NUMBERS;

import io.raglog.checks.AnswerSentences;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Set;

/**
 * The two baselines every evaluation reports next to raglog, so its figures mean something.
 *
 * <p><b>Answer-only checking</b> ({@link #ANSWER_ONLY}): what a team that only checks final answers learns. It is
 * given a perfect answer check, the label's {@code answer_correct} (generous: a real reference-free answer check
 * does worse). A wrong answer flags every stage present in the run, because an answer check cannot say which stage
 * failed; a correct answer flags nothing. So it catches no faulty-but-correct-answer run by construction, and its
 * precision is the share of present stages that were faulty in wrong-answer runs.
 *
 * <p><b>Rules-only</b> ({@link #RULES_ONLY}): the cheap lexical rule checks with fixed, hand-set triggers and no
 * classifier, no vectors, no LLM. A stage is flagged when its rule fires; a missing feature never fires:
 * <ul>
 *   <li>rewrite: the rewrite lost at least one name, number or date of the question
 *       ({@code rewrite.lost_names + rewrite.lost_numbers + rewrite.lost_dates >= 1});
 *   <li>embed: the embedded text lost a key term, has a word one or two edits off, or is a cut-off prefix
 *       ({@code embed.lost_key_terms >= 1 || embed.near_miss_words >= 1 || embed.truncated == 1});
 *   <li>retrieve: a name, number or date of the question is in no retrieved passage
 *       ({@code retrieve.key_terms_missing >= 1});
 *   <li>rerank: a name, number or date of the question was in the reranker's input but in none of the kept
 *       passages ({@code rerank.key_terms_lost >= 1});
 *   <li>generate: a number or name of the answer is nowhere in the context
 *       ({@code generate.unsupported_numbers + generate.unsupported_names >= 1}).
 * </ul>
 */
public final class Baselines {

    /** A way of flagging stages of a labeled run that is not the trained ensemble. */
    public interface Method {
        String name();

        String definition();

        Set<Stage> flag(LabeledRun run);
    }

    public static final Method ANSWER_ONLY = new Method() {
        @Override
        public String name() {
            return "answer-only";
        }

        @Override
        public String definition() {
            return "perfect answer check (label answer_correct); a wrong answer flags every present stage, a correct "
                    + "answer flags none";
        }

        @Override
        public Set<Stage> flag(LabeledRun run) {
            return run.label().answerCorrect() ? EnumSet.noneOf(Stage.class) : run.scoredStages();
        }
    };

    public static final Method RULES_ONLY = new Method() {
        @Override
        public String name() {
            return "rules-only";
        }

        @Override
        public String definition() {
            return "fixed lexical rules, no classifier: rewrite lost a name/number/date; embed lost a key term, "
                    + "near-miss word or truncated; retrieve misses a question name/number/date; rerank dropped one; "
                    + "assembly cut or dropped the best answering sentence; generate has a number/name not in the context";
        }

        @Override
        public Set<Stage> flag(LabeledRun run) {
            RunFeatures f = run.input().features();
            Set<Stage> flagged = EnumSet.noneOf(Stage.class);
            for (Stage stage : run.scoredStages()) {
                if (fires(stage, f)) {
                    flagged.add(stage);
                }
            }
            return flagged;
        }
    };

    private Baselines() {}

    static boolean fires(Stage stage, RunFeatures f) {
        return switch (stage) {
            case REWRITE -> value(f, REWRITE_LOST_NAMES) + value(f, REWRITE_LOST_NUMBERS)
                    + value(f, REWRITE_LOST_DATES) >= 1;
            case EMBED -> value(f, EMBED_LOST_KEY_TERMS) >= 1 || value(f, EMBED_NEAR_MISS_WORDS) >= 1
                    || value(f, EMBED_TRUNCATED) == 1;
            case RETRIEVE -> value(f, RETRIEVE_KEY_TERMS_MISSING) >= 1;
            case RERANK -> value(f, RERANK_KEY_TERMS_LOST) >= 1;
            case ASSEMBLE -> value(f, ASSEMBLE_LOST_ANSWER_MATCH) >= AnswerSentences.ANSWERS
                    && value(f, ASSEMBLE_LOST_ANSWER_GAP) > 0;
            case GENERATE -> value(f, GENERATE_UNSUPPORTED_NUMBERS) + value(f, GENERATE_UNSUPPORTED_NAMES) >= 1;
        };
    }

    /** A missing feature reads as 0 here: a rule that cannot be evaluated does not fire. */
    private static double value(RunFeatures f, String feature) {
        Double v = f.feature(feature);
        return v == null ? 0.0 : v;
    }
}
