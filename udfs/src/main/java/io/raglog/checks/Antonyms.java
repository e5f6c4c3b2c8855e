package io.raglog.checks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Whether one word says the opposite of another: WordNet 3.1's one-word antonyms (3,312 pairs, shipped as {@code
 * wordnet-antonyms.tsv}, made by {@code scripts/antonyms-from-wordnet.sh}) and the {@link Contrasts} pairs of function
 * words it leaves out ("before" and "after"). A rewrite that says "last" where the question said "first" asks another
 * question, yet the two words sit close in an embedding space (they are used alike), so similarity alone reads the
 * one as a form of the other; a lexicon does not.
 *
 * <p>Words are read in the forms a question writes them: a comparative or superlative ("largest", "earliest",
 * "biggest") and a past or plural form ("increased", "wins") are looked up by their base as well.
 */
public final class Antonyms {

    private static final String RESOURCE = "wordnet-antonyms.tsv";

    /** Each word of a pair, to the words it is opposed to. */
    private static final Map<String, Set<String>> OPPOSED = load();

    private Antonyms() {}

    /** Whether the two lower-case words, in any of the forms read, are opposites. */
    public static boolean opposite(String lowerA, String lowerB) {
        if (lowerA.equals(lowerB)) {
            return false;
        }
        if (Contrasts.opposite(lowerA, lowerB)) {
            return true;
        }
        Set<String> basesOfB = null;
        for (String a : bases(lowerA)) {
            Set<String> opposed = OPPOSED.get(a);
            if (opposed != null) {
                basesOfB = basesOfB == null ? bases(lowerB) : basesOfB;
                for (String b : basesOfB) {
                    if (opposed.contains(b)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Whether the lower-case word, in any of the forms read, has an opposite. */
    public static boolean hasOpposite(String lowerWord) {
        if (Contrasts.hasOpposite(lowerWord)) {
            return true;
        }
        for (String base : bases(lowerWord)) {
            if (OPPOSED.containsKey(base)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The word and the bases it may be a form of, by the regular endings: "earliest" and "earlier" give "early",
     * "biggest" gives "big", "largest" gives "large", "increased" gives "increase", "wins" gives "win". Not every
     * candidate is a word; only those in the lexicon match.
     */
    static Set<String> bases(String word) {
        Set<String> out = new HashSet<>(6);
        out.add(word);
        for (String ending : new String[] {"est", "er", "ed", "es", "s", "d"}) {
            if (word.length() > ending.length() + 2 && word.endsWith(ending)) {
                String stem = word.substring(0, word.length() - ending.length());
                out.add(stem);
                if (ending.startsWith("e")) {
                    out.add(stem + "e"); // larg-est: large
                    char last = stem.charAt(stem.length() - 1);
                    if (last == 'i') {
                        out.add(stem.substring(0, stem.length() - 1) + "y"); // earli-est: early
                    } else if (stem.length() > 2 && last == stem.charAt(stem.length() - 2)) {
                        out.add(stem.substring(0, stem.length() - 1)); // bigg-est: big
                    }
                }
            }
        }
        return out;
    }

    private static Map<String, Set<String>> load() {
        Map<String, Set<String>> opposed = new HashMap<>();
        try (InputStream in = Antonyms.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the antonyms " + RESOURCE + " are not on the classpath");
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue; // WordNet's notice
                }
                int tab = line.indexOf('\t');
                String a = line.substring(0, tab);
                String b = line.substring(tab + 1);
                opposed.computeIfAbsent(a, k -> new HashSet<>()).add(b);
                opposed.computeIfAbsent(b, k -> new HashSet<>()).add(a);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
        return opposed;
    }
}
