package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Corpus;
import io.raglog.simulator.corpus.Document;
import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Sentences;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

    public Vocabulary(Corpus corpus) {
        TreeSet<String> nameSet = new TreeSet<>();
        TreeSet<String> wordSet = new TreeSet<>();
        for (Document d : corpus.documents()) {
            for (String name : KeyTerms.midSentenceNames(d.text())) {
                if (name.length() > 3) {
                    nameSet.add(name);
                }
            }
            for (String token : Words.tokens(d.text())) {
                KeyTerms.Kind kind = KeyTerms.kindOf(token);
                if (kind == null && !Words.isStopword(token) && token.length() > 4
                        && token.chars().allMatch(Character::isLowerCase)) {
                    wordSet.add(token);
                }
            }
        }
        this.names = List.copyOf(nameSet);
        this.words = List.copyOf(wordSet);
        this.documents = corpus.documents();
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

    /** A few content words from a document about something else: the "unrelated words" of an embed fault. */
    public List<String> unrelatedWords(String title, int count, SplittableRandom rng) {
        Document d = unrelatedDocument(title, rng);
        List<String> content = new ArrayList<>();
        for (String token : Words.tokens(d.text())) {
            String lower = token.toLowerCase(Locale.ROOT);
            if (!Words.isStopword(token) && token.length() > 3 && !content.contains(lower)) {
                content.add(lower);
            }
        }
        List<String> out = new ArrayList<>();
        while (out.size() < count && !content.isEmpty()) {
            out.add(content.remove(rng.nextInt(content.size())));
        }
        return out;
    }

    /** A sentence of a document about something else, for an answer that ignores the context. */
    public String unrelatedSentence(String title, SplittableRandom rng) {
        Document d = unrelatedDocument(title, rng);
        List<String> sentences = Sentences.of(d.text());
        return Rand.pick(rng, sentences);
    }
}
