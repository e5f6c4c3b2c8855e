package io.raglog.checks;

/**
 * Words that turn a sentence against the question it seems to answer: the question says "not" and the sentence does
 * not ("What system did Kublai's government not compromise with?" against "… compromised with the Confucian
 * system"), or the sentence has the opposite of one of the question's words and not the word ("the least" where the
 * question asks "the most"). A reader sees at once that such a sentence does not answer; a count of shared words
 * does not. They are two of the common ways an unanswerable question is written from a passage that seems to answer
 * it (SQuAD 2.0's negations and antonyms), and, measured on the simulator's training split, a negated question whose
 * passage's best sentence has no negation was unanswerable 173 times in 196, a question whose opposite that sentence
 * held 46 times in 53.
 *
 * <p>A text's contrast marks are one {@code long}: bit 0 for a negation, then a pair of bits for each pair of
 * opposites ({@link #OPPOSITES}, at most 31). Marks are read by a word's {@link WordHash}, so that a passage's index
 * takes them from the words it reads anyway ({@link TextIndex}).
 */
public final class Contrasts {

    /** The mark of a negation: "not", "no", "never", "without", any "…n't". */
    static final long NEGATION = 1L;

    private static final String[] NEGATIONS = {"not", "no", "never", "none", "neither", "nor", "without", "cannot"};

    /** Pairs of opposites a question is turned by; pair {@code k} marks bits {@code 2k + 1} and {@code 2k + 2}. */
    private static final String[][] OPPOSITES = {
        {"most", "least"}, {"largest", "smallest"}, {"first", "last"}, {"before", "after"}, {"more", "less"},
        {"highest", "lowest"}, {"higher", "lower"}, {"earliest", "latest"}, {"maximum", "minimum"},
        {"best", "worst"}, {"north", "south"}, {"east", "west"}, {"northern", "southern"}, {"eastern", "western"},
        {"increase", "decrease"}, {"increased", "decreased"}, {"larger", "smaller"}, {"longest", "shortest"},
        {"major", "minor"}, {"positive", "negative"}, {"won", "lost"}, {"win", "lose"}, {"oldest", "newest"},
        {"earlier", "later"}, {"inside", "outside"}, {"private", "public"}, {"internal", "external"},
        {"above", "below"}, {"success", "failure"}, {"legal", "illegal"}, {"accepted", "rejected"},
    };

    /** The word each pair's bit stands for, by the bit's place: what a finding quotes. */
    private static final String[] WORD_AT = new String[64];

    /** Every pair's lower bit (1, 3, 5, …): a pair's bits are {@code b} and {@code b << 1}. */
    private static final long LOWER_OF_PAIRS;

    /** An open-addressed table of the marked words' hashes and their marks, probed by the hash's low bits. */
    private static final int SLOTS = 256;
    private static final long[] KEYS = new long[SLOTS];
    private static final long[] MARKS = new long[SLOTS];

    static {
        if (OPPOSITES.length > 31) {
            throw new IllegalStateException("a text's marks are one long: at most 31 pairs of opposites");
        }
        for (String negation : NEGATIONS) {
            put(negation, NEGATION);
        }
        long lower = 0;
        for (int k = 0; k < OPPOSITES.length; k++) {
            long bit = 1L << (2 * k + 1);
            lower |= bit;
            put(OPPOSITES[k][0], bit);
            put(OPPOSITES[k][1], bit << 1);
            WORD_AT[2 * k + 1] = OPPOSITES[k][0];
            WORD_AT[2 * k + 2] = OPPOSITES[k][1];
        }
        LOWER_OF_PAIRS = lower;
    }

    private Contrasts() {}

    private static void put(String word, long mark) {
        long hash = WordHash.of(word);
        int i = slot(hash);
        while (KEYS[i] != 0 && KEYS[i] != hash) {
            i = (i + 1) & (SLOTS - 1);
        }
        KEYS[i] = hash;
        MARKS[i] |= mark;
    }

    private static int slot(long hash) {
        return (int) (hash ^ (hash >>> 29)) & (SLOTS - 1);
    }

    /** The mark of the lower-case word with this {@link WordHash}: 0 for a word that marks nothing. */
    static long markOf(long wordHash) {
        for (int i = slot(wordHash); KEYS[i] != 0; i = (i + 1) & (SLOTS - 1)) {
            if (KEYS[i] == wordHash) {
                return MARKS[i];
            }
        }
        return 0;
    }

    /** The mark of a lower-case word read as a String: its own, or a negation for a contraction ("didn't"). */
    static long markOf(String lowerWord, long wordHash) {
        if (lowerWord.endsWith("n't") || lowerWord.endsWith("n’t")) {
            return NEGATION;
        }
        return markOf(wordHash);
    }

    /**
     * Whether two lower-case words are a pair of {@link #OPPOSITES} ("before" and "after"): the function words and
     * superlatives WordNet's antonyms leave out, for {@link Antonyms}.
     */
    static boolean opposite(String lowerA, String lowerB) {
        long a = markOf(WordHash.of(lowerA)) & ~NEGATION;
        long b = markOf(WordHash.of(lowerB)) & ~NEGATION;
        return a != 0 && b != 0 && (a & opposites(b)) != 0;
    }

    /** Whether a lower-case word is one of a pair of {@link #OPPOSITES}. */
    static boolean hasOpposite(String lowerWord) {
        return (markOf(WordHash.of(lowerWord)) & ~NEGATION) != 0;
    }

    /** Whether the text holds a negation ("not", "never", "…n't", …). */
    public static boolean negated(String text) {
        return (of(text) & NEGATION) != 0;
    }

    /** The marks of a text's words together. */
    public static long of(String text) {
        long marks = 0;
        if (text != null) {
            for (String word : Terms.words(text)) {
                marks |= markOf(word, WordHash.of(word));
            }
        }
        return marks;
    }

    /**
     * Whether a sentence with marks {@code sentence} is turned against a question with marks {@code question}: the
     * question is negated and the sentence is not, or the sentence has the opposite of a question's word without the
     * word (a question that has both words of a pair is turned by neither).
     */
    public static boolean against(long question, long sentence) {
        return turning(question, sentence) != 0;
    }

    /**
     * What turns a sentence with marks {@code sentence} against a question with marks {@code question}, as a reader
     * is told it ("it lacks the question's 'not'", "it says 'most' where the question says 'least'"); null when
     * nothing does ({@link #against}).
     */
    public static String why(long question, long sentence) {
        long turning = turning(question, sentence);
        if (turning == 0) {
            return null;
        }
        if (turning == NEGATION) {
            return "it lacks the question's 'not'";
        }
        long word = Long.lowestOneBit(turning);
        return "it says '" + WORD_AT[Long.numberOfTrailingZeros(opposites(word))] + "' where the question says '"
                + WORD_AT[Long.numberOfTrailingZeros(word)] + "'";
    }

    /**
     * What turns a sentence against a question as the two words that do it, the question's first ({"before",
     * "after"}; {"not", ""} for a negation the sentence lacks); null when nothing does ({@link #against}).
     */
    public static String[] turningWords(long question, long sentence) {
        long turning = turning(question, sentence);
        if (turning == 0) {
            return null;
        }
        if (turning == NEGATION) {
            return new String[] {"not", ""};
        }
        long word = Long.lowestOneBit(turning);
        return new String[] {WORD_AT[Long.numberOfTrailingZeros(word)],
            WORD_AT[Long.numberOfTrailingZeros(opposites(word))]};
    }

    /**
     * {@link #NEGATION} when the question is negated and the sentence is not; else the marks of the question's words
     * whose opposite the sentence has and they do not (a word whose opposite the question also has is left out); 0
     * when nothing turns the sentence.
     */
    private static long turning(long question, long sentence) {
        if ((question & NEGATION) != 0 && (sentence & NEGATION) == 0) {
            return NEGATION;
        }
        long words = question & ~NEGATION;
        long alone = words & ~opposites(words);
        return alone & ~sentence & opposites(sentence);
    }

    /** Each marked word's opposite, for marks without {@link #NEGATION}. */
    private static long opposites(long words) {
        return ((words & LOWER_OF_PAIRS) << 1) | ((words >>> 1) & LOWER_OF_PAIRS);
    }
}
