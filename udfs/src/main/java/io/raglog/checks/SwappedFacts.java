package io.raglog.checks;

import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Names and numbers an answer wrote over in the context sentence it otherwise copies: "occupied by Germany from
 * <b>2</b> August 1915" where the context says "from <b>4</b> August 1915", "the village of <b>West</b>" for "the
 * village of <b>Warszowa</b>". A model copying a sentence slips on exactly these, and the grounding checks read an
 * answer's names and numbers as a set over the whole context, where the wrong one often stands too (another date of
 * the same passage, a name from the next one): the slip is seen only where it stands, word by word against the
 * sentence it was taken from ({@link WordAlignment}).
 *
 * <p>Each sentence of the answer is read against the context sentence {@link AnswerSentences#locate} gives
 * it. It counts as a copy when at least two of its words, one a content word, stand in that sentence in order, and at
 * most {@link #OWN_WORDS} of its words after the first aligned one do not: an opening of the answer's own ("The
 * passages suggest that ...") is allowed, a paraphrase is not read at all. In a copy, a swap is one word where the
 * sentence has one other word, between two aligned words (or as the last word of both), both numbers (a digit in
 * each, not the same number) or both names (capitalised, neither the first word of its sentence), the written word
 * nowhere in the sentence. A copy that stops on its swap while the sentence goes on ("in the United <b>Wales</b>") is
 * read against the sentence's next word, and only when the written word is nowhere in the context at all: an answer
 * that ends early says less, not something else.
 */
final class SwappedFacts {

    /** Words of a copy, after its first aligned word, that the source sentence does not have: the swap among them. */
    static final int OWN_WORDS = 2;

    /** A name or number written over: {@code copied} in the source sentence, {@code written} in the answer. */
    record Swap(String copied, String written, Passage passage) {}

    private SwappedFacts() {}

    /**
     * @param sentences the answer's {@link AnswerSentences#sentences}
     * @param located where each was taken from ({@link AnswerSentences#locateEach})
     * @param context the context's words (the written word of a swap at the answer's end must be nowhere in it)
     */
    static List<Swap> in(List<String> sentences, List<AnswerSentences.Located> located, TextIndex context) {
        List<Swap> out = new ArrayList<>();
        for (int i = 0; i < sentences.size(); i++) {
            AnswerSentences.SourceSentence source = located.get(i).sentence();
            // below AnswerSentences.SOURCED a sentence is not a copy to read word by word (most answers are not)
            if (source != null && source.found() >= AnswerSentences.SOURCED) {
                swapsIn(Words.of(sentences.get(i)), Words.of(source.text()), source.passage(), context, out);
            }
        }
        return out;
    }

    private static void swapsIn(Words written, Words copied, Passage passage, TextIndex context, List<Swap> out) {
        WordAlignment alignment = WordAlignment.of(written.lower, copied.lower);
        if (!isCopy(written, alignment)) {
            return;
        }
        for (WordAlignment.Gap gap : alignment.gaps()) {
            if (gap.aFrom() == 0 || gap.aLength() != 1 || gap.bLength() < 1) {
                continue; // the answer's own opening, a word left out, or more than one word written
            }
            // the answer stops on this word while its sentence goes on
            boolean stopsEarly = gap.aTo() == written.size() && gap.bLength() > 1;
            if (!stopsEarly && gap.bLength() != 1) {
                continue;
            }
            int w = gap.aFrom();
            int c = gap.bFrom();
            String word = written.lower.get(w);
            if (copied.holds(word) || (stopsEarly && context.hasWord(word))) {
                continue;
            }
            if (anotherOfItsKind(written, w, copied, c)) {
                out.add(new Swap(copied.original(c), written.original(w), passage));
            }
        }
    }

    /** At least two words in place, one of them a content word, and few words of the answer's own after the first. */
    private static boolean isCopy(Words written, WordAlignment alignment) {
        if (alignment.aligned() < 2) {
            return false;
        }
        boolean content = false;
        int first = -1;
        for (int i = 0; i < written.size(); i++) {
            if (alignment.alignedA(i)) {
                content |= Terms.isContentWord(written.lower.get(i));
                if (first < 0) {
                    first = i;
                }
            }
        }
        int own = 0;
        for (int i = first; i < written.size(); i++) {
            if (!alignment.alignedA(i)) {
                own++;
            }
        }
        return content && own <= OWN_WORDS;
    }

    /**
     * Whether the answer's word {@code i} is another fact of the kind of the sentence's word {@code j}: two different
     * numbers (a digit in each: "4,100" and "4100" are one number, "n2" and "n4" two) or two different names
     * (capitalised, not the first word of their sentences, not one word in two forms).
     */
    private static boolean anotherOfItsKind(Words a, int i, Words b, int j) {
        String x = a.original(i);
        String y = b.original(j);
        boolean numberA = AnswerType.hasDigit(x);
        boolean numberB = AnswerType.hasDigit(y);
        if (numberA || numberB) {
            Set<String> nx = Terms.numbers(x);
            Set<String> ny = Terms.numbers(y);
            return numberA && numberB && (nx.isEmpty() || ny.isEmpty() ? !x.equalsIgnoreCase(y) : !nx.equals(ny));
        }
        return i > 0 && j > 0 && capitalised(x) && capitalised(y) && !Terms.sameWord(a.lower.get(i), b.lower.get(j));
    }

    private static boolean capitalised(String word) {
        return Character.isUpperCase(word.codePointAt(0));
    }

    /** A sentence's words as written and in lower case, in order ({@link Terms#scanWords}). */
    private record Words(String text, int[] bounds, List<String> lower) {

        static Words of(String text) {
            Collected collected = new Collected(text);
            Terms.scanWords(text, 0, text.length(), collected);
            return new Words(text, collected.bounds, collected.lower);
        }

        /** Each word's bounds, start and end one after the other, and its lower-case form. */
        private static final class Collected implements Terms.WordBounds {
            private final String text;
            private final List<String> lower = new ArrayList<>();
            private int[] bounds = new int[32];

            Collected(String text) {
                this.text = text;
            }

            @Override
            public void word(int start, int end) {
                int k = 2 * lower.size();
                if (k + 2 > bounds.length) {
                    bounds = Arrays.copyOf(bounds, 2 * bounds.length);
                }
                bounds[k] = start;
                bounds[k + 1] = end;
                lower.add(Terms.lowerCaseWord(text, start, end));
            }
        }

        int size() {
            return lower.size();
        }

        String original(int i) {
            return text.substring(bounds[2 * i], bounds[2 * i + 1]);
        }

        /** The word anywhere in the sentence: a number as written, any other word in any form. */
        boolean holds(String lowerWord) {
            if (AnswerType.hasDigit(lowerWord)) {
                return lower.contains(lowerWord);
            }
            for (String w : lower) {
                if (Terms.sameWord(lowerWord, w)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** How a finding names a swap. */
    static String describe(Swap swap) {
        return "the answer writes '" + swap.written() + "' where the context sentence it copies (passage "
                + swap.passage().id() + ") says '" + swap.copied() + "'";
    }
}
