package io.raglog.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the word index and the second opinion compare without making strings must compare as the strings did: word
 * numbers as a map of the words would give them, passage keys' order as {@code String.compareTo}, and candidates' ids
 * as the concatenated ids.
 */
class WordIndexOrderTest {

    private static final Random RANDOM = new Random(27);

    @Test
    void shouldNumberWordsAsAMapInTheOrderFirstAddedWould() {
        WordNumbers numbers = new WordNumbers();
        Map<String, Integer> reference = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            // short words from a small alphabet: many repeats, and hash codes that collide ("Aa", "BB")
            String word = randomWord("abAB", 1 + RANDOM.nextInt(7));
            String asNew = new String(word.toCharArray()); // an equal word, not the same object
            assertThat(numbers.numberOf(asNew)).isEqualTo(reference.getOrDefault(word, -1));
            int expected = reference.computeIfAbsent(word, w -> reference.size());
            assertThat(numbers.add(i % 2 == 0 ? word : asNew)).isEqualTo(expected);
        }
        assertThat(numbers.size()).isEqualTo(reference.size());
        assertThat(numbers.numberOf("not a word added")).isEqualTo(-1);
    }

    @Test
    void shouldOrderPassageKeysAsTheirStrings() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            keys.add(PassageKey.of("passage " + i + " " + randomWord("abcdefgh ", 40)));
        }
        keys.add("0000000000000000");
        keys.add("ffffffffffffffff");
        keys.add("7fffffffffffffff");
        keys.add("8000000000000000");
        assertSameOrder(keys);
        // a key not as PassageKey makes them (none is): compared as strings
        keys.add("indexed-or-odd");
        keys.add("FFFFFFFFFFFFFFFF");
        keys.add("00000000000000000");
        assertSameOrder(keys);
        assertThat(WordIndex.orderOf("FFFFFFFFFFFFFFFF")).isEqualTo(-1);
        assertThat(WordIndex.orderOf("ffffffffffffffff")).isEqualTo(-1);
    }

    private static void assertSameOrder(List<String> keys) {
        WordIndex index = new WordIndex(KnownPassagesFunction.COMMON_WORD);
        for (String key : keys) {
            index.add(key, null, Set.of("word"));
        }
        for (int a = 0; a < keys.size(); a++) {
            for (int b = 0; b < keys.size(); b++) {
                assertThat(index.keyBefore(a, b)).as("%s before %s", keys.get(a), keys.get(b))
                        .isEqualTo(keys.get(a).compareTo(keys.get(b)) < 0);
            }
        }
    }

    @Test
    void shouldOrderIdsAsTheConcatenatedIds() {
        List<String[]> ids = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String key = PassageKey.of("text " + i);
            String storeId = switch (i % 5) {
                case 0, 1 -> null;
                case 2 -> KnownPassagesFunction.INDEXED_ID_PREFIX + key.substring(0, RANDOM.nextInt(17));
                case 3 -> "indexe" + randomWord("cdz:", RANDOM.nextInt(4));
                default -> randomWord("0123456789abcdefinx:-", RANDOM.nextInt(30));
            };
            ids.add(new String[] {storeId, key});
        }
        for (String[] a : ids) {
            for (String[] b : ids) {
                int expected = Integer.signum(id(a).compareTo(id(b)));
                assertThat(Integer.signum(KnownPassagesFunction.compareIds(a[0], a[1], b[0], b[1])))
                        .as("%s vs %s", id(a), id(b)).isEqualTo(expected);
            }
        }
    }

    private static String id(String[] storeIdAndKey) {
        return storeIdAndKey[0] != null
                ? storeIdAndKey[0] : KnownPassagesFunction.INDEXED_ID_PREFIX + storeIdAndKey[1];
    }

    private static String randomWord(String alphabet, int length) {
        StringBuilder word = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            word.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return word.toString();
    }
}
