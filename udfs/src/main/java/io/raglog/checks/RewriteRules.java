package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;

import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.List;

/** What the rewrite lost: the question's names, numbers and dates that no rewritten query kept. */
final class RewriteRules {

    static final String CHECK = "rewrite.lost_terms";

    private RewriteRules() {}

    static void apply(Run run, FeatureVector v, List<Finding> findings) {
        if (!run.has(Stage.REWRITE)) {
            return;
        }
        List<String> outputs = RunTexts.rewrites(run);
        v.put(REWRITE_OUTPUT_COUNT, outputs.size());
        String question = RunTexts.question(run);
        if (question == null) {
            return;
        }
        List<KeyTerm> terms = Terms.keyTerms(question);
        TextIndex all = TextIndex.ofAll(outputs);
        List<KeyTerm> lost = terms.stream().filter(t -> !all.contains(t)).toList();
        v.put(REWRITE_LOST_NAMES, count(lost, KeyTerm.Kind.NAME));
        v.put(REWRITE_LOST_NUMBERS, count(lost, KeyTerm.Kind.NUMBER));
        v.put(REWRITE_LOST_DATES, count(lost, KeyTerm.Kind.DATE));
        v.put(REWRITE_LOST_SHARE, share(lost.size(), terms.size()));
        double worst = outputs.isEmpty() ? share(terms.size(), terms.size()) : 0;
        for (String output : outputs) {
            TextIndex one = TextIndex.of(output);
            worst = Math.max(worst, share(terms.stream().filter(t -> !one.contains(t)).count(), terms.size()));
        }
        v.put(REWRITE_WORST_OUTPUT_LOST_SHARE, worst);
        ContentWords words = ContentWords.of(question, outputs);
        v.put(REWRITE_LOST_WORDS, words.lost().size()).put(REWRITE_ADDED_WORDS, words.added().size());
        for (KeyTerm t : lost) {
            findings.add(Finding.of(CHECK, Fact.of(Stage.REWRITE, FactKind.MISSING_TERM, t.subject()),
                    "rewrite dropped the " + t));
        }
    }

    static long count(List<KeyTerm> terms, KeyTerm.Kind kind) {
        return terms.stream().filter(t -> t.kind() == kind).count();
    }

    /** 0 of 0 is 0: nothing to lose is nothing lost. */
    static double share(long part, long whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }
}
