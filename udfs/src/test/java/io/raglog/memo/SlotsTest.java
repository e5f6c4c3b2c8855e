package io.raglog.memo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SlotsTest {

    @Test
    void shouldGiveBackTheSameResultInstanceForAnEqualText() {
        Slots<List<String>> slots = new Slots<>(4096);
        List<String> result = List.of("cash", "flow");
        String text = "Acme Corp's operating cash flow was $4.1 billion.";

        slots.put(text, result);

        assertThat(slots.find(text)).isSameAs(result);
        assertThat(slots.find(new String(text))).isSameAs(result);
        assertThat(slots.find("Acme Corp's operating cash flow was $4.2 billion.")).isNull();
    }

    @Test
    void shouldRoundItsCapacityUpToAPowerOfTwo() {
        assertThat(new Slots<>(1).capacity()).isEqualTo(1);
        assertThat(new Slots<>(2).capacity()).isEqualTo(2);
        assertThat(new Slots<>(3).capacity()).isEqualTo(4);
        assertThat(new Slots<>(16).capacity()).isEqualTo(16);
        assertThat(new Slots<>(1000).capacity()).isEqualTo(1024);
        assertThat(new Slots<>(4096).capacity()).isEqualTo(4096);
    }

    @Test
    void shouldNeverHoldMoreTextsThanItsCapacity() {
        Slots<Integer> slots = new Slots<>(64);
        List<String> texts = randomTexts(new Random(1), 1000);
        for (int i = 0; i < texts.size(); i++) {
            slots.put(texts.get(i), i);
        }

        long held = texts.stream().filter(t -> slots.find(t) != null).count();

        assertThat(held).isLessThanOrEqualTo(64).isGreaterThan(0);
    }

    @Test
    void shouldHoldAsManyTextsAsItsCapacityWhenTheyFitOneSet() {
        Slots<Integer> slots = new Slots<>(Slots.WAYS);
        List<String> texts = randomTexts(new Random(2), Slots.WAYS);
        for (int i = 0; i < texts.size(); i++) {
            slots.put(texts.get(i), i);
        }

        for (int i = 0; i < texts.size(); i++) {
            assertThat(slots.find(texts.get(i))).isEqualTo(i);
        }
    }

    @Test
    void shouldKeepATextAskedAboutAgainOverOneThatWasNot() {
        Slots<Integer> slots = new Slots<>(Slots.WAYS);
        List<String> texts = randomTexts(new Random(3), Slots.WAYS + 1);
        for (int i = 0; i < Slots.WAYS; i++) {
            slots.put(texts.get(i), i);
        }
        slots.find(texts.get(0)); // the oldest, but asked about again

        slots.put(texts.get(Slots.WAYS), Slots.WAYS);

        assertThat(slots.find(texts.get(0))).isEqualTo(0);
        assertThat(slots.find(texts.get(1))).isNull();
        assertThat(slots.find(texts.get(Slots.WAYS))).isEqualTo(Slots.WAYS);
    }

    @Test
    void shouldTellApartTextsWhoseHashesCollide() {
        Slots<String> slots = new Slots<>(16);
        // "Aa" and "BB" share a String hash, and so does every same-length concatenation of them.
        List<String> colliding = List.of("AaAa", "AaBB", "BBAa", "BBBB");
        assertThat(colliding).extracting(String::hashCode).containsOnly("AaAa".hashCode());

        colliding.forEach(t -> slots.put(t, t.toLowerCase()));

        for (String t : colliding) {
            assertThat(slots.find(new String(t))).isEqualTo(t.toLowerCase());
        }
    }

    @Test
    void shouldGiveWhatTheFunctionGivesForManyRecurringAndCollidingTexts() {
        PerThreadMemo<String> memo = new PerThreadMemo<>(64);
        Random random = new Random(4);
        List<String> texts = randomTexts(random, 300);
        texts.addAll(List.of("AaAa", "AaBB", "BBAa", "BBBB", ""));
        int computed = 0;
        for (int i = 0; i < 20_000; i++) {
            // A few texts recur often, the rest now and then: some hit, some were replaced.
            String text = texts.get(random.nextInt(random.nextBoolean() ? 20 : texts.size()));
            String copy = random.nextBoolean() ? text : new String(text);
            int[] calls = {0};
            String result = memo.get(copy, t -> {
                calls[0]++;
                return reversed(t);
            });
            assertThat(result).isEqualTo(reversed(text));
            computed += calls[0];
        }
        assertThat(computed).isGreaterThan(0).isLessThan(20_000 / 2);
    }

    private static String reversed(String text) {
        return new StringBuilder(text).reverse().toString();
    }

    private static List<String> randomTexts(Random random, int count) {
        List<String> texts = new ArrayList<>();
        while (texts.size() < count) {
            StringBuilder text = new StringBuilder();
            int length = 1 + random.nextInt(40);
            for (int i = 0; i < length; i++) {
                text.append((char) ('a' + random.nextInt(26)));
            }
            if (!texts.contains(text.toString())) {
                texts.add(text.toString());
            }
        }
        return texts;
    }
}
