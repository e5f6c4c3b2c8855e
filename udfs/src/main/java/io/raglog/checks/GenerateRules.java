package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;

import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.List;
import java.util.Set;

/**
 * Names and numbers in the answer that its context never mentions or that it wrote over in a sentence it copies,
 * answers that decline to answer, and answers of another kind than the question asks for.
 */
final class GenerateRules {

    static final String CHECK = "generate.grounding";

    /** A gate's reply as the finding quotes it: its first line, at most this long. */
    private static final int MAX_QUOTED_REPLY = 80;
    /** The share of the question's content words an answer restates before its turn against the question is read. */
    static final double RESTATES = 0.5;

    private GenerateRules() {}

    static void apply(Run run, FeatureVector v, List<Finding> findings) {
        if (!run.has(Stage.GENERATE)) {
            return;
        }
        GenerateStage gen = run.stages().generate();
        v.put(GENERATE_CONTEXT_COUNT, RunTexts.context(run).size());
        String answer = AnswerMarkup.stripped(gen.answer());
        if (answer == null) {
            return;
        }
        boolean refuses = Refusals.refuses(answer);
        v.put(GENERATE_REFUSES, refuses);
        if (gen.stoppedByGate()) {
            findings.add(Finding.of(RuleChecks.RELEVANCE_GATE_CHECK, Fact.of(Stage.GENERATE, FactKind.REFUSAL, ""),
                    "the pipeline's own relevance gate judged the context insufficient and stopped the run before "
                            + "generating (it replied " + quoted(gen.gateReply()) + ")"));
        } else if (refuses) {
            findings.add(Finding.of(CHECK, Fact.of(Stage.GENERATE, FactKind.REFUSAL, ""),
                    "the answer says the context does not answer the question"));
        }
        List<String> passageTexts = RunTexts.texts(RunTexts.context(run));
        TextIndex context = !passageTexts.isEmpty() || gen.prompt() == null ? TextIndex.ofPassages(passageTexts)
                : TextIndex.of(gen.prompt()); // passages not itemised: the prompt holds the context
        String question = RunTexts.question(run);
        TextIndex contextOrQuestion = question == null ? context : context.and(TextIndex.of(question));
        List<KeyTerm> terms = Terms.keyTerms(answer);
        int numbers = 0;
        int names = 0;
        int unsupported = 0;
        for (KeyTerm t : terms) {
            if (!context.contains(t)) {
                if (t.kind() == KeyTerm.Kind.NUMBER) {
                    numbers++;
                } else if (t.kind() == KeyTerm.Kind.NAME) {
                    names++;
                }
            }
            if (!contextOrQuestion.contains(t)) {
                unsupported++;
                findings.add(Finding.of(CHECK, Fact.of(Stage.GENERATE, FactKind.UNSUPPORTED_TERM, t.subject()),
                        "the answer's " + t + " appears nowhere in its context"));
            }
        }
        if (question != null && !refuses) {
            kindAsked(question, answer, v, findings);
            turnedAgainst(question, answer, v, findings);
        }
        if (question != null) {
            AnswerSentences answers = AnswerSentences.forQuestion(question);
            List<Passage> passages = RunTexts.context(run);
            if (answers.hasQuestion() && !passages.isEmpty()) {
                double contextMatch = answers.bestIn(passages);
                v.put(GENERATE_CONTEXT_ANSWER_MATCH, contextMatch);
                if (!refuses) {
                    AnswerSentences.Located whole = answers.locate(answer, passages);
                    AnswerSentences.Source source = whole.source();
                    v.put(GENERATE_ANSWER_FOUND, source.found()).put(GENERATE_ANSWER_SOURCE_MATCH, source.match())
                            .put(GENERATE_ANSWER_MISSING_WORDS, source.missing());
                    List<String> sentences = AnswerSentences.sentences(answer);
                    List<AnswerSentences.Located> located = answers.locateEach(sentences, whole, passages);
                    double statementMatch = answeringStatementMatch(source, located);
                    v.put(GENERATE_ANSWERING_STATEMENT_MATCH, statementMatch)
                            .put(GENERATE_ANSWERING_STATEMENT_GAP, contextMatch - statementMatch);
                    List<SwappedFacts.Swap> swaps = SwappedFacts.in(sentences, located, context);
                    v.put(GENERATE_SWAPPED_IN_PLACE, swaps.size());
                    for (SwappedFacts.Swap swap : swaps) {
                        Fact changed = Fact.of(Stage.GENERATE, FactKind.CHANGED_WORD,
                                Fact.changed(swap.copied(), swap.written()));
                        findings.add(Finding.of(CHECK, changed, SwappedFacts.describe(swap)));
                    }
                }
            }
        }
        v.put(GENERATE_UNSUPPORTED_NUMBERS, numbers).put(GENERATE_UNSUPPORTED_NAMES, names)
                .put(GENERATE_UNSUPPORTED_SHARE, RewriteRules.share(unsupported, terms.size()));
    }

    /**
     * How well the context sentence the answer's best-sourced sentence came from matches the question: the best over
     * the answer's sentences whose own words come at least {@link AnswerSentences#SOURCED} from one context sentence
     * ({@link AnswerSentences#locateEach}), and the whole answer's. A wrong answer is taken from a sentence that does
     * not answer, each of its sentences; a right one, stated and then dressed with what surrounds it, has one sentence
     * from the sentence that answers, which the whole answer's source (feature
     * {@code generate.answer_source_sentence_match}) misses when the dressing holds more of its words. On the
     * simulator's training split, answers sourced 0.5 or more below the context's best sentence: sound 137, faulty 187
     * read whole; sound 49, faulty 179 read by sentence.
     */
    private static double answeringStatementMatch(AnswerSentences.Source whole, List<AnswerSentences.Located> located) {
        double best = whole.match();
        for (AnswerSentences.Located sentence : located) {
            if (sentence.source().found() >= AnswerSentences.SOURCED) {
                best = Math.max(best, sentence.source().match());
            }
        }
        return best;
    }

    /**
     * An answer of another kind than the question asks for: "Watt's." to "About what year was it invented?". The
     * context may hold it word for word, so grounding alone reads it as sound; only the kinds whose form words show
     * (a time, a count, a duration) are read.
     */
    private static String quoted(String reply) {
        String r = reply.strip();
        int newline = r.indexOf('\n');
        r = newline < 0 ? r : r.substring(0, newline).strip() + " ...";
        return "\"" + (r.length() <= MAX_QUOTED_REPLY ? r : r.substring(0, MAX_QUOTED_REPLY) + " ...") + "\"";
    }

    /**
     * An answer that restates the question turned against it: "What mechanisms do many species not utilize?" answered
     * "Many species, however, utilize mechanisms that ...", "before" answered with "after". SQuAD writes unanswerable
     * questions so from the passage that seems to answer them, and a generator that copies that passage's sentence
     * answers another question; by its words it is grounded. Only an answer that restates at least
     * {@link #RESTATES} of the question's content words is read: a short span names no words to turn. On the training
     * split 11 of 13 such answers were faulty (the two sound ones restated "not as correct" as "less correct").
     */
    private static void turnedAgainst(String question, String answer, FeatureVector v, List<Finding> findings) {
        long asked = Contrasts.of(question);
        long said = asked == 0 ? 0 : Contrasts.of(answer);
        // most questions have no turn to lose: their words are not read again
        String[] words = asked == 0 ? null : Contrasts.turningWords(asked, said);
        if (words != null) {
            Set<String> questionStems = Terms.contentStems(question);
            Set<String> answerStems = Terms.contentStems(answer);
            long restated = questionStems.stream().filter(answerStems::contains).count();
            words = !questionStems.isEmpty() && restated >= RESTATES * questionStems.size() ? words : null;
        }
        if (words != null) {
            findings.add(Finding.of(CHECK, Fact.of(Stage.GENERATE, FactKind.CHANGED_WORD,
                    Fact.changed(words[0], words[1])), "the answer restates the question turned against it: "
                    + Contrasts.why(asked, said).replaceFirst("^it ", "")));
        }
        v.put(GENERATE_TURNED_AGAINST_QUESTION, words != null);
    }

    private static void kindAsked(String question, String answer, FeatureVector v, List<Finding> findings) {
        AnswerType asked = AnswerType.asked(question);
        Boolean shown = asked == null ? null : asked.shownBy(answer);
        if (shown == null) {
            return;
        }
        v.put(GENERATE_WRONG_KIND, !shown);
        if (!shown) {
            findings.add(Finding.of(CHECK, Fact.of(Stage.GENERATE, FactKind.WRONG_KIND, asked.id()),
                    "the question asks for " + asked.describe() + "; the answer holds no number"
                            + (asked == AnswerType.COUNT ? "" : " and no word of time")));
        }
    }
}
