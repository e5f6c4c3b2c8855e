package io.raglog.checks;

import io.raglog.memo.PerThreadMemo;
import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Does a passage answer the question? A lexical stand-in for what a reader does: find the one sentence that restates
 * the question and adds something to it. A passage merely about the question's subject mentions its words across
 * several sentences; the passage that answers it usually has a single sentence carrying most of them, plus the answer.
 *
 * <p>A sentence's match is the share of the question's content-word stems it contains, halved when it adds no content
 * word of its own (a sentence that only repeats the question answers nothing), and cut below {@link #ANSWERS} when it
 * is turned against the question (it lacks the question's "not", or holds the opposite of one of its words:
 * {@link Contrasts}) or its passage lacks a number or an ordinal the question names. Measured on simulated SQuAD runs
 * before those cuts, a passage holding the reference answer had a sentence matching at least {@link #ANSWERS} about
 * 85 % of the time, a passage without it about 12 %: a strong signal, not an oracle.
 */
public final class AnswerSentences {

    /** The match from which a sentence is taken to answer the question. */
    public static final double ANSWERS = 0.5;
    /** What is left of a sentence's match when it is turned against the question: below {@link #ANSWERS} at most. */
    static final double TURNED = 0.4;
    /** Ordinals a question may name ("the fourth son"); "first" is read as the opposite of "last" ({@link Contrasts}). */
    private static final Set<String> ORDINALS = Set.of("second", "third", "fourth", "fifth", "sixth", "seventh",
            "eighth", "ninth", "tenth", "eleventh", "twelfth");

    /** Where a sentence ends; {@link #sentenceBounds} finds its matches by a scan ({@code AnswerSentencesTest}). */
    static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[\\p{Lu}0-9\"'“])");

    private final Set<String> questionStems;
    /** The question's {@link Contrasts} marks: a sentence turned against them is read as answering less. */
    private final long questionMarks;
    /** The numbers (years included) and ordinals the question names: a passage without one of them answers nothing. */
    private final List<KeyTerm> questionNumbers;
    private final List<String> questionOrdinals;
    /** The same stems' {@link WordHash}es, ascending: what a passage's sentences, kept as hashes, are matched with. */
    private final long[] questionStemHashes;

    private AnswerSentences(Set<String> questionStems, String question) {
        this.questionStems = Collections.unmodifiableSet(questionStems);
        this.questionMarks = Contrasts.of(question);
        this.questionNumbers = numbersNamed(question);
        this.questionOrdinals = ordinalsNamed(question);
        this.questionStemHashes = WordHash.sortedOf(questionStems);
    }

    /**
     * The questions read most recently, per thread: the retrieval, rerank, assembly and generation rules each ask for
     * their run's question, and reading it four times was a twentieth of what the rule checks allocated (JFR).
     * Shareable: an AnswerSentences never changes (its stems are unmodifiable).
     */
    private static final PerThreadMemo<AnswerSentences> RECENT_QUESTIONS = new PerThreadMemo<>(16);

    public static AnswerSentences forQuestion(String question) {
        if (question == null) {
            return new AnswerSentences(stems(null), null);
        }
        return RECENT_QUESTIONS.get(question, q -> new AnswerSentences(stems(q), q));
    }

    public boolean hasQuestion() {
        return !questionStems.isEmpty();
    }

    /** The question's content-word stems: what a sentence that answers it must restate. */
    public Set<String> questionStems() {
        return questionStems;
    }

    /** Match of one sentence, 0-1. */
    public double match(String sentence) {
        Set<String> stems = stems(sentence);
        int shared = 0;
        for (String stem : stems) {
            if (questionStems.contains(stem)) {
                shared++;
            }
        }
        double m = against(match(shared, stems.size()), Contrasts.of(sentence));
        return lacksWhatIsNamed(TextIndex.of(sentence)) ? m * TURNED : m;
    }

    /** Match of sentence {@code i} of a passage, read by its {@link TextIndex}. */
    private double match(SentenceStems sentences, int i) {
        return against(match(sentences.shared(i, questionStemHashes), sentences.size(i)), sentences.marks(i));
    }

    /**
     * A match cut to {@link #TURNED} of itself when the sentence is turned against the question ({@link Contrasts}):
     * it only seems to answer, and however much of the question it shares it stays below {@link #ANSWERS}.
     */
    private double against(double match, long sentenceMarks) {
        return questionMarks != 0 && Contrasts.against(questionMarks, sentenceMarks) ? match * TURNED : match;
    }

    /**
     * Match of a sentence of {@code stems} distinct stems, {@code shared} of them the question's: it adds something
     * of its own when it holds more stems than those.
     */
    private double match(int shared, int stems) {
        if (questionStems.isEmpty()) {
            return 0;
        }
        double share = (double) shared / questionStems.size();
        return stems > shared ? share : share / 2;
    }

    /** Best match of a sentence of this passage. */
    public double bestIn(String passage) {
        double best = 0;
        TextIndex index = TextIndex.ofPassage(passage);
        SentenceStems sentences = index.sentenceStems();
        for (int i = 0; i < sentences.count(); i++) {
            best = Math.max(best, match(sentences, i));
        }
        return lacksWhatIsNamed(index) ? best * TURNED : best;
    }

    /**
     * Whether the text lacks a number or an ordinal the question names: "What did Genghis's fourth son inherit?" is
     * not answered by a passage that never says "fourth", however much of the rest it shares. SQuAD's unanswerable
     * questions are often written so, with a number or an ordinal put in place of the passage's: on the simulator's
     * training split a question's number missing from the paragraph it was written from made it unanswerable 44
     * times in 48, an ordinal 35 in 41. Names are not read so: a question names half the time what its passage
     * says otherwise (a surname, an alias), answerable or not.
     */
    private boolean lacksWhatIsNamed(TextIndex text) {
        return lackedName(text) != null;
    }

    /** The first number or ordinal the question names that the text lacks, as the question writes it; else null. */
    private String lackedName(TextIndex text) {
        for (int i = 0; i < questionNumbers.size(); i++) {
            if (!text.contains(questionNumbers.get(i))) {
                return questionNumbers.get(i).surface();
            }
        }
        for (int i = 0; i < questionOrdinals.size(); i++) {
            if (!text.hasWord(questionOrdinals.get(i))) {
                return questionOrdinals.get(i);
            }
        }
        return null;
    }

    /**
     * The sentence that shares most of the question's words, when it only seems to answer: turned against the
     * question ({@link Contrasts}) or in a passage that lacks a number or an ordinal the question names. Null when it
     * answers as far as words tell, or no sentence shares a word. A question asked against what the knowledge base
     * says (a "not" its passage lacks, another year) finds one; a retrieval that missed the answer mostly finds
     * passages merely about the subject. What a reader is shown of a knowledge gap.
     */
    public Seeming onlySeemsToAnswer(List<Passage> passages) {
        double best = 0;
        Passage bestPassage = null;
        int bestSentence = -1;
        long bestMarks = 0;
        String bestLacked = null;
        for (Passage p : passages) {
            TextIndex index = TextIndex.ofPassage(p.text());
            SentenceStems sentences = index.sentenceStems();
            String lacked = null;
            boolean lackedRead = false;
            for (int i = 0; i < sentences.count(); i++) {
                double raw = match(sentences.shared(i, questionStemHashes), sentences.size(i));
                if (raw <= best) {
                    continue;
                }
                if (!lackedRead) {
                    lacked = lackedName(index);
                    lackedRead = true;
                }
                best = raw;
                bestPassage = p;
                bestSentence = i;
                bestMarks = sentences.marks(i);
                bestLacked = lacked;
            }
        }
        if (bestPassage == null) {
            return null;
        }
        // the reason and the sentence's text only for the one sentence that is kept
        String why = bestLacked != null ? "its passage never names '" + bestLacked + "'"
                : questionMarks != 0 ? Contrasts.why(questionMarks, bestMarks) : null;
        return why == null ? null
                : new Seeming(bestPassage.id(), sentence(bestPassage.text(), bestSentence), why, bestLacked);
    }

    /**
     * A sentence that only seems to answer the question.
     *
     * @param passageId the passage it is in
     * @param sentence the sentence, as its passage writes it
     * @param why what tells it does not answer, for a reader
     * @param lackedName the number or ordinal its passage lacks, when that is why; else null
     */
    public record Seeming(String passageId, String sentence, String why, String lackedName) {}

    /** Sentence {@code i} of a text, as {@link TextIndex} counts them. */
    private static String sentence(String text, int i) {
        int[] bounds = sentenceBounds(text);
        return text.substring(bounds[2 * i], bounds[2 * i + 1]);
    }

    private static List<KeyTerm> numbersNamed(String question) {
        if (question == null) {
            return List.of();
        }
        List<KeyTerm> out = new ArrayList<>();
        for (KeyTerm t : Terms.keyTerms(question)) {
            if (t.kind() == KeyTerm.Kind.NUMBER
                    || t.kind() == KeyTerm.Kind.DATE && Character.isDigit(t.norm().charAt(0))) {
                out.add(t);
            }
        }
        return List.copyOf(out);
    }

    private static List<String> ordinalsNamed(String question) {
        if (question == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String word : Terms.words(question)) {
            if (ORDINALS.contains(word)) {
                out.add(word);
            }
        }
        return List.copyOf(out);
    }

    /** Best match over passages; 0 when there are none. */
    public double bestIn(List<Passage> passages) {
        double best = 0;
        for (Passage p : passages) {
            best = Math.max(best, bestIn(p.text()));
        }
        return best;
    }

    /** Ids of the passages with a sentence that answers the question ({@link #ANSWERS} or more). */
    public List<String> answering(List<Passage> passages) {
        List<String> ids = new ArrayList<>();
        for (Passage p : passages) {
            if (bestIn(p.text()) >= ANSWERS) {
                ids.add(p.id());
            }
        }
        return ids;
    }

    /**
     * Where the answer came from: among the sentences of these passages that hold the largest share of the answer's
     * own content words (those not in the question), the best question match. {@code found} is that share (0 when the
     * answer adds no word of its own or none is found).
     */
    public Source sourceOf(String answer, List<Passage> passages) {
        return locate(answer, passages).source();
    }

    /**
     * {@link #sourceOf} with the context sentence it chose: {@code sentence} is null when the text adds no content word
     * of its own to the question or no sentence holds one. One search for a caller that needs both.
     */
    Located locate(String text, List<Passage> passages) {
        Origin origin = origin(text, passages);
        if (origin == null) {
            return new Located(new Source(0, 0, 0), null);
        }
        Source source = new Source(origin.found, origin.match, (int) Math.round((1 - origin.found) * origin.own));
        if (origin.found <= 0) {
            return new Located(source, null);
        }
        Passage passage = passages.get(origin.passage);
        int[] bounds = sentenceBounds(passage.text());
        return new Located(source, new SourceSentence(passage, bounds[2 * origin.sentence],
                bounds[2 * origin.sentence + 1], origin.found));
    }

    /** What {@link #locate} found: the text's {@link Source} and the sentence it was taken from (or null). */
    record Located(Source source, SourceSentence sentence) {}

    /**
     * A sentence of a passage: {@code passage.text().substring(from, to)}, holding {@code found} of the text's own
     * content words.
     */
    record SourceSentence(Passage passage, int from, int to, double found) {
        String text() {
            return passage.text().substring(from, to);
        }
    }

    /** Where {@link #sourceOf} found the text's words: which passage and sentence, and how well it matched. */
    private record Origin(int passage, int sentence, double found, double match, int own) {}

    private Origin origin(String answer, List<Passage> passages) {
        Set<String> own = new LinkedHashSet<>(stems(answer));
        own.removeAll(questionStems);
        if (own.isEmpty()) {
            return null;
        }
        long[] ownStems = WordHash.sortedOf(own);
        double bestFound = 0;
        double matchThere = 0;
        int passageThere = 0;
        int sentenceThere = 0;
        for (int p = 0; p < passages.size(); p++) {
            TextIndex index = TextIndex.ofPassage(passages.get(p).text());
            SentenceStems sentences = index.sentenceStems();
            double scale = lacksWhatIsNamed(index) ? TURNED : 1;
            for (int i = 0; i < sentences.count(); i++) {
                double found = (double) sentences.shared(i, ownStems) / own.size();
                double m = match(sentences, i) * scale;
                if (found > bestFound + 1e-9 || (Math.abs(found - bestFound) <= 1e-9 && found > 0 && m > matchThere)) {
                    bestFound = found;
                    matchThere = m;
                    passageThere = p;
                    sentenceThere = i;
                }
            }
        }
        return new Origin(passageThere, sentenceThere, bestFound, matchThere, own.size());
    }

    /**
     * @param found share of the answer's own content words found together in one sentence
     * @param match how well that sentence matches the question
     * @param missing how many of the answer's own content words that sentence lacks: a swapped name or number in an
     *     otherwise copied sentence leaves exactly one
     */
    public record Source(double found, double match, int missing) {}

    /**
     * The share of a sentence's own content words one context sentence must hold to be read as where it was taken
     * from: a copy with one word swapped holds all but that one, and most sentences of a wrong answer hold less.
     */
    static final double SOURCED = 0.5;

    /**
     * Where each of the answer's {@link #sentences} was taken from ({@link #locate}), in order; a one-sentence answer's
     * is {@code whole}, not searched for again. Read by the swapped-fact check and by how well the answer's best
     * sentence was sourced: a verbose or listed answer states the answer and then what surrounds it ("Guo Shoujing.
     * The Yuan undertook extensive public works."), and read whole, its words come mostly from the surrounding sentence.
     */
    List<Located> locateEach(List<String> sentences, Located whole, List<Passage> passages) {
        if (sentences.size() == 1) {
            return List.of(whole);
        }
        List<Located> out = new ArrayList<>(sentences.size());
        for (String sentence : sentences) {
            out.add(locate(sentence, passages));
        }
        return out;
    }

    public static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        int[] bounds = sentenceBounds(text);
        for (int i = 0; i < bounds.length; i += 2) {
            out.add(text.substring(bounds[i], bounds[i + 1]));
        }
        return out;
    }

    /**
     * Where {@link #sentences} cuts a text, as start and end indexes into it, in pairs: the pieces of
     * {@code SENTENCE_END.split(text.strip())} that are not blank. Found by a scan, since every passage a run's checks
     * read is cut into sentences when its {@link TextIndex} is built (the regex, with its look-behind and look-ahead,
     * and the pieces' copies were a large part of that); {@code AnswerSentencesTest} holds the two to the same cuts.
     */
    static int[] sentenceBounds(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && Character.isWhitespace(text.codePointAt(start))) {
            start += Character.charCount(text.codePointAt(start));
        }
        while (end > start && Character.isWhitespace(text.codePointBefore(end))) {
            end -= Character.charCount(text.codePointBefore(end));
        }
        int[] bounds = new int[8];
        int n = 0;
        int from = start;
        EndMarks marks = new EndMarks(text);
        int i = start + 1;
        while (i < end) {
            // SENTENCE_END: a run of \s after [.!?] and before [\p{Lu}0-9"'“]; the run is whole, since a look-behind
            // inside it sees white space
            i = marks.next(i - 1) + 1;
            if (i >= end) {
                break;
            }
            if (!isRegexSpace(text.charAt(i))) {
                i++;
                continue;
            }
            int next = i;
            while (next < end && isRegexSpace(text.charAt(next))) {
                next++;
            }
            if (next < end && startsSentence(text.codePointAt(next))) {
                if (!isBlank(text, from, i)) {
                    bounds = add(bounds, n, from, i);
                    n += 2;
                }
                from = next;
            }
            i = next + 1;
        }
        if (!isBlank(text, from, end)) {
            bounds = add(bounds, n, from, end);
            n += 2;
        }
        return java.util.Arrays.copyOf(bounds, n);
    }

    private static int[] add(int[] bounds, int n, int from, int to) {
        int[] out = n + 2 > bounds.length ? java.util.Arrays.copyOf(bounds, bounds.length * 2) : bounds;
        out[n] = from;
        out[n + 1] = to;
        return out;
    }

    /** Java regex {@code \s}: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /**
     * Where a text's next {@code [.!?]} is, found by {@code String.indexOf}, which scans many chars at a time: a
     * sentence ends only after one, and looking at each char of every passage for them was most of cutting it.
     */
    private static final class EndMarks {

        private final String text;
        /** The next of each mark found so far; the text's length when there is no more. */
        private int point = -1;
        private int exclamation = -1;
        private int question = -1;

        EndMarks(String text) {
            this.text = text;
        }

        /** The first mark at or after {@code from}; the text's length when there is none. */
        int next(int from) {
            point = point >= from ? point : find('.', from);
            exclamation = exclamation >= from ? exclamation : find('!', from);
            question = question >= from ? question : find('?', from);
            return Math.min(point, Math.min(exclamation, question));
        }

        private int find(char mark, int from) {
            int at = text.indexOf(mark, from);
            return at < 0 ? text.length() : at;
        }
    }

    /** {@code [\p{Lu}0-9"'“]}. */
    private static boolean startsSentence(int cp) {
        return (cp >= '0' && cp <= '9') || cp == '"' || cp == '\'' || cp == '“'
                || Character.getType(cp) == Character.UPPERCASE_LETTER;
    }

    /** As {@code substring(from, to).isBlank()}. */
    static boolean isBlank(String text, int from, int to) {
        int i = from;
        while (i < to) {
            int cp = text.codePointAt(i);
            if (!Character.isWhitespace(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    private static Set<String> stems(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : Terms.contentWords(text)) {
            // "Phags-pa" and "Phags pa" meet; "4.1" and "4,100" stay whole numbers
            if (!TextIndex.hasJoiner(w)) {
                out.add(Terms.stem(w)); // a content word without a joiner is its only part
                continue;
            }
            for (String part : Terms.WORD_JOINER.split(w)) {
                if (Terms.isContentWord(part)) {
                    out.add(Terms.stem(part));
                }
            }
        }
        return out;
    }
}
