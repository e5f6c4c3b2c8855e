package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.calls.ClassifiedCall;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingIndexTest {

    private static Map<String, ClassifiedCall> buffered(ClassifiedCall... calls) {
        Map<String, ClassifiedCall> m = new LinkedHashMap<>();
        for (ClassifiedCall c : calls) {
            m.put(c.event().eventId(), c);
        }
        return m;
    }

    @Test
    void shouldLeaveUnhintedCallsThatStartedAfterTheTimerForALaterOne() {
        TestCalls early = TestCalls.run("bot", null, "early", 1);
        TestCalls later = TestCalls.run("bot", null, "later", 2);
        PendingIndex index = new PendingIndex();
        index.load("bot", buffered(early.rewrite(0.0, 0.4), early.generate(0.5, 1.0),
                later.rewrite(30.0, 30.4)).entrySet());
        index.add("bot", later.generate(30.5, 31.0));

        assertThat(index.linkable("bot", TestCalls.ms(3.0))).containsExactlyInAnyOrder("early-rewrite",
                "early-generate");
        assertThat(index.linkable("bot", TestCalls.ms(30.5))).hasSize(4);
        index.remove("bot", "early-rewrite");
        index.remove("bot", "early-generate");
        assertThat(index.linkable("bot", TestCalls.ms(3.0))).isEmpty();
        assertThat(index.isEmpty("bot")).as("later calls are still buffered").isFalse();
        assertThat(index.size()).isEqualTo(2);
        index.clear("bot");
        assertThat(index.isEmpty("bot")).isTrue();
        assertThat(index.knows("bot")).isTrue();
        assertThat(index.size()).isZero();
    }

    @Test
    void shouldGiveEveryCallOfAHintedKeyWhateverTheTimer() {
        TestCalls run = TestCalls.run("bot", "trace-9", "hinted", 3);
        PendingIndex index = new PendingIndex();
        index.load("bot-trace-9", buffered(run.rewrite(0.0, 0.4), run.generate(60.0, 61.0)).entrySet());

        assertThat(index.linkable("bot-trace-9", TestCalls.ms(3.0))).containsExactlyInAnyOrder("hinted-rewrite",
                "hinted-generate");
    }

    @Test
    void shouldIndexAKeyOnlyFromAWalkOfItsState() {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        PendingIndex index = new PendingIndex();
        index.add("bot", a.rewrite(0.0, 0.4)); // not indexed: the walk will find it in state

        assertThat(index.knows("bot")).isFalse();
        assertThat(index.size()).isZero();
        assertThatThrownBy(() -> index.linkable("bot", TestCalls.ms(1))).isInstanceOf(IllegalStateException.class);

        index.load("bot", buffered(a.rewrite(0.0, 0.4)).entrySet());
        index.add("bot", a.rewrite(0.0, 0.4)); // a redelivery under the same event id
        assertThat(index.size()).isEqualTo(1);
        index.forget("bot");
        assertThat(index.knows("bot")).isFalse();
        assertThat(index.size()).isZero();
    }

    @Test
    void shouldTellAHintedKeyIndexedWhileEmptyByItsFirstCall() {
        TestCalls run = TestCalls.run("bot", "trace-9", "hinted", 3);
        PendingIndex index = new PendingIndex();
        index.load("bot-trace-9", Map.<String, ClassifiedCall>of().entrySet());
        index.add("bot-trace-9", run.generate(60.0, 61.0));

        assertThat(index.linkable("bot-trace-9", TestCalls.ms(3.0))).containsExactly("hinted-generate");
    }

    @Test
    void shouldTellWhenATimerHasACallToCloseOrFlush() {
        TestCalls run = TestCalls.run("bot", null, "due", 4);
        TestCalls next = TestCalls.run("bot", null, "next", 5);
        PendingIndex index = new PendingIndex();
        index.load("bot", buffered(run.rewrite(0.0, 0.4), run.generate("due-failed", 0.5, 1.0, 503, List.of()),
                next.generate(10.0, 11.0)).entrySet());
        AssemblySettings settings = AssemblySettings.DEFAULTS;

        // the failed generator closes nothing, and the next run's generator had not started by 5 s
        long early = TestCalls.ms(5.0);
        assertThat(index.anyDue("bot", early, RunLinker.due(early, settings, true))).isFalse();
        // it is due a grace after its end
        long closes = TestCalls.ms(11.0) + settings.grace().toMillis();
        assertThat(index.anyDue("bot", closes - 1, RunLinker.due(closes - 1, settings, false))).isFalse();
        assertThat(index.anyDue("bot", closes, RunLinker.due(closes, settings, false))).isTrue();

        index.remove("bot", "next-generate");
        // the calls left are due when their run timeout has passed, and then only on a path that flushes them
        long timedOut = TestCalls.ms(0.4) + settings.runTimeout().toMillis();
        assertThat(index.anyDue("bot", timedOut - 1, RunLinker.due(timedOut - 1, settings, true))).isFalse();
        assertThat(index.anyDue("bot", timedOut, RunLinker.due(timedOut, settings, true))).isTrue();
        assertThat(index.anyDue("bot", timedOut, RunLinker.due(timedOut, settings, false))).isFalse();
    }
}
