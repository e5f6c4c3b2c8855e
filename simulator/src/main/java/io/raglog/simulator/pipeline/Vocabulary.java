package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Corpus;
import io.raglog.simulator.corpus.Document;
import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Sentences;
import io.raglog.simulator.text.Words;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Words and names of the corpus, for faults that need a plausible replacement: a name from another article, an
 * unrelated word, a claim about something else. Sorted sets, so draws depend on the seed only.
 */
public final class Vocabulary {

    private final List<String> names;
    private final List<String> words;
    private final List<Document> documents;
    private final List<String> years;
    /** Numbers of the corpus (not years) by digit count, so a swap keeps the magnitude. */
    private final java.util.Map<Integer, List<String>> numbersByDigits;

    public Vocabulary(Corpus corpus) {
        TreeSet<String> nameSet = new TreeSet<>();
        TreeSet<String> wordSet = new TreeSet<>();
        TreeSet<String> yearSet = new TreeSet<>();
        java.util.TreeMap<Integer, TreeSet<String>> numberSets = new java.util.TreeMap<>();
        for (Document d : corpus.documents()) {
            for (String name : KeyTerms.midSentenceNames(d.text())) {
                if (name.length() > 3) {
                    nameSet.add(name);
                }
            }
            for (String token : Words.tokens(d.text())) {
                KeyTerms.Kind kind = KeyTerms.kindOf(token);
                if (KeyTerms.isYear(token)) {
                    yearSet.add(token);
                } else if (token.length() <= 9 && token.chars().allMatch(Character::isDigit) && token.charAt(0) != '0') {
                    numberSets.computeIfAbsent(token.length(), k -> new TreeSet<>()).add(token);
                }
                if (kind == null && !Words.isStopword(token) && token.length() > 4
                        && token.chars().allMatch(Character::isLowerCase)) {
                    wordSet.add(token);
                }
            }
        }
        this.names = List.copyOf(nameSet);
        this.words = List.copyOf(wordSet);
        this.documents = corpus.documents();
        this.years = List.copyOf(yearSet);
        java.util.Map<Integer, List<String>> byDigits = new java.util.TreeMap<>();
        numberSets.forEach((digits, set) -> byDigits.put(digits, List.copyOf(set)));
        this.numbersByDigits = java.util.Collections.unmodifiableMap(byDigits);
    }

    /** Another year the corpus mentions (a date swapped for a real one, not a random shift); null when none. */
    public String otherYear(String not, SplittableRandom rng) {
        return years.isEmpty() ? null : other(years, not, rng);
    }

    /** Another number of the corpus with as many digits; null when it has none. */
    public String otherNumber(String not, SplittableRandom rng) {
        List<String> pool = numbersByDigits.get(not.length());
        return pool == null || pool.size() < 2 ? null : other(pool, not, rng);
    }

    public String otherName(String not, SplittableRandom rng) {
        return other(names, not, rng);
    }

    public String otherWord(String not, SplittableRandom rng) {
        return other(words, not, rng);
    }

    private static String other(List<String> pool, String not, SplittableRandom rng) {
        for (int i = 0; i < 16; i++) {
            String candidate = Rand.pick(rng, pool);
            if (!candidate.equalsIgnoreCase(not)) {
                return candidate;
            }
        }
        return not + "s";
    }

    /** A document about something else than {@code title}. */
    public Document unrelatedDocument(String title, SplittableRandom rng) {
        for (int i = 0; i < 32; i++) {
            Document d = Rand.pick(rng, documents);
            if (!d.title().equals(title)) {
                return d;
            }
        }
        return Rand.pick(rng, documents);
    }

    /** A sentence of a document about something else, for an answer that ignores the context. */
    public String unrelatedSentence(String title, SplittableRandom rng) {
        Document d = unrelatedDocument(title, rng);
        List<String> sentences = Sentences.of(d.text());
        return Rand.pick(rng, sentences);
    }
}
