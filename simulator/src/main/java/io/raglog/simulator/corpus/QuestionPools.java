package io.raglog.simulator.corpus;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * The questions a simulation asks: those of the chosen articles (all of the corpus when none were chosen), as an
 * answerable and an unanswerable pool, each drawn without replacement ({@link QuestionDraw}).
 */
public final class QuestionPools {

    private final QuestionDraw answerable;
    private final QuestionDraw unanswerable;
    private final double answerableShare;

    /**
     * @param articles the articles whose questions may be asked, null for every question
     * @param shuffleStream the stream for pass {@code n} over a pool; the two pools get disjoint pass numbers
     */
    public QuestionPools(Corpus corpus, List<String> articles, double answerableShare,
            LongFunction<SplittableRandom> shuffleStream) {
        List<Question> questions = articles == null ? corpus.questions() : chosen(corpus, articles);
        List<Question> yes = new ArrayList<>();
        List<Question> no = new ArrayList<>();
        for (Question q : questions) {
            (q.answerable() ? yes : no).add(q);
        }
        this.answerable = new QuestionDraw(yes, pass -> shuffleStream.apply(2 * pass));
        this.unanswerable = new QuestionDraw(no, pass -> shuffleStream.apply(2 * pass + 1));
        this.answerableShare = answerableShare;
    }

    private static List<Question> chosen(Corpus corpus, List<String> articles) {
        Set<String> wanted = new LinkedHashSet<>(articles);
        Set<String> known = new TreeSet<>();
        corpus.documents().forEach(d -> known.add(ArticleSplits.articleOf(d.docId())));
        Set<String> unknown = new TreeSet<>(wanted);
        unknown.removeAll(known);
        if (!unknown.isEmpty()) {
            // A misspelt article would silently shrink the split; a typo must not pass for a smaller sample.
            throw new IllegalArgumentException("articles not in the corpus: " + unknown + "; known: " + known);
        }
        List<Question> out = ArticleSplits.questionsOf(corpus, wanted);
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no question of the corpus is about " + wanted);
        }
        return out;
    }

    /**
     * Users mostly ask what the corpus can answer: SQuAD 2.0 is half unanswerable by design, so answerable questions
     * are drawn with a fixed share (the coin is the run's own draw) and the rest keep the pipelines honest.
     */
    public Question next(double coin) {
        boolean wantAnswerable = unanswerable.isEmpty() || !answerable.isEmpty() && coin < answerableShare;
        return (wantAnswerable ? answerable : unanswerable).next();
    }

    public int answerableCount() {
        return answerable.size();
    }

    public int unanswerableCount() {
        return unanswerable.size();
    }

    /** How many times a pool ran dry and was drawn again: questions repeat within the sample when above zero. */
    public int cycles() {
        return answerable.cycles() + unanswerable.cycles();
    }
}
