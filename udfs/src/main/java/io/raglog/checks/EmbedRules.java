package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;

import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The text sent for embedding against the question and the rewrites: lost names, numbers and dates, words one or two
 * edits off (a corrupted query), added unrelated words, truncation.
 */
final class EmbedRules {

    static final String CHECK = "embed.text";
    /** Shorter words are too often one edit from another real word ("cat"/"car") to call it corruption. */
    static final int NEAR_MISS_MIN_LENGTH = 4;
    static final int NEAR_MISS_MAX_EDITS = 2;

    private EmbedRules() {}

    static void apply(Run run, FeatureVector v, List<Finding> findings) {
        if (!run.has(Stage.EMBED)) {
            return;
        }
        // an embedding model's instruction before the query is not a word the query added
        List<String> texts = RunTexts.embeddedQueries(run);
        v.put(EMBED_TEXT_COUNT, texts.size());
        List<String> expected = RunTexts.embeddingSources(run);
        if (expected.isEmpty()) {
            return; // nothing to compare with: the features stay missing
        }
        List<String> allSources = new ArrayList<>(expected);
        String question = RunTexts.question(run);
        if (question != null && !allSources.contains(question)) {
            allSources.add(question);
        }
        // the words in a HashSet still, whose order picks the near miss named; the stems, only asked whether they are
        // there, in a StringSet: their HashSet's entries were 2.3 % of what the rule checks allocated (ruleChecks, JFR)
        Set<String> sourceWords = new HashSet<>();
        StringSet sourceStems = new StringSet(16);
        for (String s : allSources) {
            for (String w : Terms.words(s)) {
                sourceWords.add(w);
                sourceStems.insert(Terms.stem(w));
            }
        }
        if (texts.isEmpty()) {
            int terms = expected.stream().mapToInt(s -> Terms.keyTerms(s).size()).sum();
            v.put(EMBED_LOST_KEY_TERMS, terms).put(EMBED_LOST_SHARE, terms == 0 ? 0.0 : 1.0)
                    .put(EMBED_NEAR_MISS_WORDS, 0).put(EMBED_ADDED_WORDS, 0).put(EMBED_ADDED_SHARE, 0)
                    .put(EMBED_TRUNCATED, false).put(EMBED_LENGTH_RATIO, 0);
            findings.add(Finding.of(CHECK, Fact.of(Stage.EMBED, FactKind.NO_TEXT, ""), "no text was sent for embedding"));
            return;
        }
        int lost = 0;
        int termTotal = 0;
        Set<String> nearMisses = new LinkedHashSet<>();
        Set<String> added = new LinkedHashSet<>();
        int contentWords = 0;
        boolean truncated = false;
        double lengthRatio = Double.MAX_VALUE;
        for (String text : texts) {
            List<String> words = Terms.words(text);
            String source = closest(words, allSources);
            List<String> sourceTokens = Terms.words(source);
            TextIndex index = TextIndex.of(text);
            StringSet embeddedWords = null; // built for the first near miss: most texts have none
            for (KeyTerm t : Terms.keyTerms(source)) {
                termTotal++;
                if (!index.contains(t)) {
                    lost++;
                    findings.add(Finding.of(CHECK, Fact.of(Stage.EMBED, FactKind.MISSING_TERM, t.subject()),
                            "the embedded text lost the " + t));
                }
            }
            for (String w : words) {
                if (!Terms.isContentWord(w)) {
                    continue;
                }
                contentWords++;
                if (sourceWords.contains(w) || sourceStems.contains(Terms.stem(w))) {
                    continue;
                }
                String near = nearMiss(w, sourceWords, null);
                if (near != null) {
                    if (nearMisses.add(w)) {
                        if (embeddedWords == null) {
                            embeddedWords = new StringSet(words.size());
                            for (String x : words) {
                                embeddedWords.insert(x);
                            }
                        }
                        // the feature counts every word this near a query word; the evidence says "in its place"
                        // only where the query's word is gone (searched again only when the nearest is still there)
                        String replaced = embeddedWords.contains(near) ? nearMiss(w, sourceWords, embeddedWords)
                                : near;
                        if (replaced != null) {
                            Fact changed = Fact.of(Stage.EMBED, FactKind.CHANGED_WORD, Fact.changed(replaced, w));
                            findings.add(Finding.of(CHECK, changed,
                                    "the embedded text has '" + w + "' where the query says '" + replaced + "'"));
                        }
                    }
                } else {
                    added.add(w);
                }
            }
            if (isTruncated(words, sourceTokens)) {
                truncated = true;
                findings.add(Finding.of(CHECK, Fact.of(Stage.EMBED, FactKind.CUT_OFF, ""), "the embedded text is cut off: "
                        + words.size() + " of "
                        + sourceTokens.size() + " words of the query"));
            }
            lengthRatio = Math.min(lengthRatio, sourceTokens.isEmpty() ? 1.0 : (double) words.size() / sourceTokens.size());
        }
        if (!added.isEmpty()) {
            findings.add(Finding.of(CHECK, Fact.of(Stage.EMBED, FactKind.ADDED_WORDS, ""), "the embedded text adds words "
                    + "found in neither the question "
                    + "nor the rewrites: " + String.join(", ", added.stream().limit(5).toList())));
        }
        v.put(EMBED_LOST_KEY_TERMS, lost).put(EMBED_LOST_SHARE, RewriteRules.share(lost, termTotal))
                .put(EMBED_NEAR_MISS_WORDS, nearMisses.size()).put(EMBED_ADDED_WORDS, added.size())
                .put(EMBED_ADDED_SHARE, RewriteRules.share(added.size(), contentWords))
                .put(EMBED_TRUNCATED, truncated).put(EMBED_LENGTH_RATIO, lengthRatio);
    }

    /**
     * The source the text most likely came from: highest word overlap (Jaccard), the first of equals. The union is
     * counted, not built: a set per source was most of what the embed rules allocated (JFR, issue #27). The distinct
     * words in {@link StringSet}s, with no entry per word: as HashSets they were 4.3 % of what the rule checks
     * allocated (ruleChecks, JFR).
     */
    static String closest(List<String> words, List<String> sources) {
        if (sources.size() == 1) {
            return sources.get(0);
        }
        StringSet a = new StringSet(words.size());
        for (String w : words) {
            a.insert(w);
        }
        String best = sources.get(0);
        double bestScore = -1;
        for (String s : sources) {
            List<String> sourceWords = Terms.words(s);
            StringSet b = new StringSet(sourceWords.size());
            int shared = 0;
            for (String w : sourceWords) {
                if (b.insert(w) && a.contains(w)) {
                    shared++;
                }
            }
            int union = a.size() + b.size() - shared;
            double score = union == 0 ? 0 : (double) shared / union;
            if (score > bestScore) {
                bestScore = score;
                best = s;
            }
        }
        return best;
    }

    /**
     * The query word {@code word} is one or two edits off, null when none; with {@code embeddedWords}, only a query
     * word the embedded text lacks. A query embedded inside a chat history or a prompt keeps "allow", and the
     * history's "follow" is near it (the feature counts it, as it counts a typo) but stands in no word's place.
     */
    static String nearMiss(String word, Set<String> sourceWords, StringSet embeddedWords) {
        if (word.length() < NEAR_MISS_MIN_LENGTH || allDigits(word)) {
            return null;
        }
        for (String s : sourceWords) {
            if (s.length() >= NEAR_MISS_MIN_LENGTH && (embeddedWords == null || !embeddedWords.contains(s))) {
                int d = Terms.editDistance(word, s, NEAR_MISS_MAX_EDITS);
                if (d >= 1 && d <= NEAR_MISS_MAX_EDITS) {
                    return s;
                }
            }
        }
        return null;
    }

    /**
     * Whether every char is a digit: a loop, where a stream of the chars was 1.1 % of what the rule checks allocated
     * (ruleChecks, JFR).
     */
    private static boolean allDigits(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (!Character.isDigit(word.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** A proper prefix of its source, possibly ending in the middle of a word. */
    static boolean isTruncated(List<String> words, List<String> source) {
        if (words.isEmpty() || words.size() > source.size()) {
            return false;
        }
        int last = words.size() - 1;
        for (int i = 0; i < last; i++) {
            if (!words.get(i).equals(source.get(i))) {
                return false;
            }
        }
        String lastWord = words.get(last);
        String sourceWord = source.get(last);
        if (lastWord.equals(sourceWord)) {
            return words.size() < source.size();
        }
        return sourceWord.startsWith(lastWord);
    }
}
