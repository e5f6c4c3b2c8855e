package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;

import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.KnownPassages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.List;
import java.util.Set;

/** Whether the retrieved passages mention what the question is about at all. */
final class RetrieveRules {

    static final String CHECK = "retrieve.terms";
    /**
     * How much better an unreturned known passage must match the question to be stated as evidence: a quarter of
     * the question's weight, well clear of the few points two passages on one topic differ by.
     */
    static final double BETTER_PASSAGE = 0.25;

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
        TextIndex all = TextIndex.ofPassages(RunTexts.texts(passages));
        List<KeyTerm> missing = Terms.keyTerms(question).stream().filter(t -> !all.contains(t)).toList();
        v.put(RETRIEVE_KEY_TERMS_MISSING, missing.size());
        for (KeyTerm t : missing) {
            findings.add(Finding.of(CHECK, Fact.of(Stage.RETRIEVE, FactKind.MISSING_TERM, t.subject()),
                    "no retrieved passage mentions the " + t));
        }
        Set<String> wanted = Terms.contentStems(question);
        if (!wanted.isEmpty()) {
            double best = 0;
            for (Passage p : passages) {
                TextIndex index = TextIndex.ofPassage(p.text());
                int found = 0;
                for (String stem : wanted) { // a loop, not a stream: it runs for every passage retrieved
                    if (index.hasWord(stem)) {
                        found++;
                    }
                }
                best = Math.max(best, (double) found / wanted.size());
            }
            v.put(RETRIEVE_BEST_TERM_COVERAGE, best);
        }
        AnswerSentences answers = AnswerSentences.forQuestion(question);
        if (answers.hasQuestion()) {
            v.put(RETRIEVE_ANSWER_MATCH, answers.bestIn(passages));
            AnswerSentences.Seeming seeming = answers.onlySeemsToAnswer(passages);
            // a number no retrieved passage names is told once, as a missing term (above)
            if (seeming != null && (seeming.lackedName() == null
                    || missing.stream().noneMatch(t -> t.surface().equals(seeming.lackedName())))) {
                findings.add(Finding.of(CHECK, Fact.of(Stage.RETRIEVE, FactKind.SEEMING_ANSWER, "")
                        .withPassages(List.of(seeming.passageId())), "the retrieved sentence most like the answer, \""
                        + quoted(seeming.sentence()) + "\" (passage " + seeming.passageId() + "), does not answer the"
                        + " question as asked: " + seeming.why()));
            }
        }
        KnownPassages known = run.knownPassages();
        if (known != null) {
            secondOpinion(known, passages, answers, v, findings);
        }
    }

    /** What the passages the pipeline's other runs were handed, and its indexing embedded, say about this retrieval. */
    private static void secondOpinion(KnownPassages known, List<Passage> passages, AnswerSentences answers,
            FeatureVector v, List<Finding> findings) {
        v.put(RETRIEVE_WEIGHTED_MATCH, known.returnedMatch());
        v.put(RETRIEVE_UNRETURNED_MATCH_GAIN, known.matchGain());
        if (answers.hasQuestion()) {
            v.put(RETRIEVE_UNRETURNED_ANSWER_GAIN, answers.bestIn(known.unreturned()) - answers.bestIn(passages));
        }
        if (known.matchGain() >= BETTER_PASSAGE && !known.unreturned().isEmpty()) {
            Passage better = known.unreturned().get(0);
            findings.add(Finding.of(CHECK, Fact.of(Stage.RETRIEVE, FactKind.BETTER_PASSAGE_KNOWN, "")
                    .withPassages(List.of(better.id())), "passage " + better.id() + ", which the knowledge base holds"
                    + " (another run of this pipeline was handed it, or its indexing embedded it), matches the"
                    + " question better than any passage retrieved: " + percent(better.score())
                    + " of the question's words by weight, against " + percent(known.returnedMatch())));
        }
    }

    /** A sentence as a finding quotes it: whole up to 160 characters, else its start. */
    private static String quoted(String sentence) {
        return sentence.length() <= 160 ? sentence : sentence.substring(0, 157) + "...";
    }

    private static String percent(double share) {
        return Math.round(100 * share) + "%";
    }
}
