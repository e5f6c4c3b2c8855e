package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;

import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Whether the retrieved passages mention what the question is about at all. */
final class RetrieveRules {

    static final String CHECK = "retrieve.terms";

    private RetrieveRules() {}

    static void apply(Run run, FeatureVector v, List<Finding> findings) {
        if (!run.has(Stage.RETRIEVE)) {
            return;
        }
        List<Passage> passages = RunTexts.retrieved(run);
        v.put(RETRIEVE_PASSAGE_COUNT, passages.size());
        v.put(RETRIEVE_RECONSTRUCTED, run.stages().retrieve().reconstructed());
        String question = RunTexts.question(run);
        if (question == null) {
            return;
        }
        TextIndex all = TextIndex.ofAll(RunTexts.texts(passages));
        List<KeyTerm> missing = Terms.keyTerms(question).stream().filter(t -> !all.contains(t)).toList();
        v.put(RETRIEVE_KEY_TERMS_MISSING, missing.size());
        for (KeyTerm t : missing) {
            findings.add(Finding.of(CHECK, Fact.of(Stage.RETRIEVE, FactKind.MISSING_TERM, t.subject()),
                    "no retrieved passage mentions the " + t));
        }
        Set<String> wanted = new LinkedHashSet<>();
        Terms.contentWords(question).forEach(w -> wanted.add(Terms.stem(w)));
        if (!wanted.isEmpty()) {
            double best = 0;
            for (Passage p : passages) {
                TextIndex index = TextIndex.of(p.text());
                best = Math.max(best, (double) wanted.stream().filter(index::hasWord).count() / wanted.size());
            }
            v.put(RETRIEVE_BEST_TERM_COVERAGE, best);
        }
        AnswerSentences answers = AnswerSentences.forQuestion(question);
        if (answers.hasQuestion()) {
            v.put(RETRIEVE_ANSWER_MATCH, answers.bestIn(passages));
        }
    }
}
