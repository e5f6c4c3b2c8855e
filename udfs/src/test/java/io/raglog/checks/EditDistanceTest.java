package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Terms#editDistance} on reused rows gives what it gave on two new rows a call. */
class EditDistanceTest {

    /** As it was: two new rows a call. */
    private static int plainEditDistance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            int rowMin = cur[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
                rowMin = Math.min(rowMin, cur[j]);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static final String[] PIECES = {"a", "b", "ab", "σ", "😀", "\uD83D", "\uDE00", "é", " ", ""};

    @Test
    void shouldGiveThePlainDistanceWhateverCameBefore() {
        Random random = new Random(19);
        // lengths up and down, so rows left longer and dirtier by an earlier call are read after it; past the kept size
        for (int i = 0; i < 30_000; i++) {
            int longest = random.nextInt(300) == 0 ? 1500 : 40;
            String a = text(random, random.nextInt(longest));
            String b = random.nextBoolean() ? mutated(random, a) : text(random, random.nextInt(longest));
            int limit = random.nextInt(6) == 0 ? Integer.MAX_VALUE / 2 : random.nextInt(5);
            assertThat(Terms.editDistance(a, b, limit)).as("%s / %s / %d", a, b, limit)
                    .isEqualTo(plainEditDistance(a, b, limit));
        }
        assertThat(Terms.editDistance("", "", 0)).isEqualTo(plainEditDistance("", "", 0));
        assertThat(Terms.editDistance("", "ab", 2)).isEqualTo(plainEditDistance("", "ab", 2));
    }

    private static String text(Random random, int pieces) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pieces; i++) {
            b.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return b.toString();
    }

    private static String mutated(Random random, String s) {
        StringBuilder b = new StringBuilder(s);
        for (int n = random.nextInt(4); n > 0 && b.length() > 0; n--) {
            int at = random.nextInt(b.length());
            switch (random.nextInt(3)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, PIECES[random.nextInt(PIECES.length)]);
                default -> b.setCharAt(at, 'x');
            }
        }
        return b.toString();
    }
}
