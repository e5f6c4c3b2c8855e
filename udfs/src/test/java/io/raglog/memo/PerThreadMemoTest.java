package io.raglog.memo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class PerThreadMemoTest {

    /** A pure function of the text that records each text it was computed for. */
    private final List<String> computed = new ArrayList<>();
    private final Function<String, Integer> length = text -> {
        computed.add(text);
        return text.length();
    };

    @Test
    void shouldComputeATextOnceAndGiveTheSameResultForAnEqualCopy() {
        PerThreadMemo<Integer> memo = new PerThreadMemo<>(4);
        String text = "Acme Corp's operating cash flow was $4.1 billion.";

        assertThat(memo.get(text, length)).isEqualTo(text.length());
        assertThat(memo.get(new String(text), length)).isEqualTo(text.length());

        assertThat(computed).containsExactly(text);
    }

    @Test
    void shouldForgetTheLeastRecentTextPastItsCapacity() {
        PerThreadMemo<Integer> memo = new PerThreadMemo<>(2);
        memo.get("a", length);
        memo.get("bb", length);
        memo.get("ccc", length);

        memo.get("a", length);

        assertThat(computed).containsExactly("a", "bb", "ccc", "a");
    }

    @Test
    void shouldKeepATextAskedAboutLately() {
        PerThreadMemo<Integer> memo = new PerThreadMemo<>(2);
        memo.get("a", length);
        memo.get("bb", length);
        memo.get("a", length); // now the more recent of the two
        memo.get("ccc", length);

        memo.get("a", length);
        memo.get("bb", length);

        assertThat(computed).containsExactly("a", "bb", "ccc", "bb");
    }

    @Test
    void shouldNeverShareResultsBetweenThreads() throws Exception {
        PerThreadMemo<Integer> memo = new PerThreadMemo<>(4);
        memo.get("a", length);

        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            List<String> computedThere = new ArrayList<>();
            Integer there = other.submit(() -> memo.get("a", text -> {
                computedThere.add(text);
                return -1; // what a shared map would hide
            })).get();

            assertThat(there).isEqualTo(-1);
            assertThat(computedThere).containsExactly("a");
        } finally {
            other.shutdownNow();
        }
        assertThat(memo.get("a", length)).isEqualTo(1);
        assertThat(computed).containsExactly("a");
    }
}
