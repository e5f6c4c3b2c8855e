package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallSignalsCacheTest {

    private static Map<String, ClassifiedCall> buffered(ClassifiedCall... calls) {
        Map<String, ClassifiedCall> m = new LinkedHashMap<>();
        for (ClassifiedCall c : calls) {
            m.put(c.event().eventId(), c);
        }
        return m;
    }

    @Test
    void shouldReadACallOnceAndKeepOnlyWhatIsBuffered() {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        CallSignalsCache cache = new CallSignalsCache(10);
        Map<String, ClassifiedCall> two = buffered(a.rewrite(0.0, 0.4), a.embed(0.45, 0.7));
        Map<String, CallSignals> first = cache.of("k", two.entrySet());
        Map<String, ClassifiedCall> one = buffered(two.values().iterator().next());
        Map<String, CallSignals> second = cache.of("k", one.entrySet());

        assertThat(second.keySet()).containsExactlyElementsOf(one.keySet());
        assertThat(second.get("alpha-rewrite")).isSameAs(first.get("alpha-rewrite"));
        assertThat(cache.size()).isEqualTo(1);
        cache.forget("k", "alpha-rewrite");
        assertThat(cache.size()).isZero();
        assertThat(cache.of("k", one.entrySet()).get("alpha-rewrite")).isNotSameAs(first.get("alpha-rewrite"));
    }

    @Test
    void shouldStopRememberingPastItsBoundButStillAnswer() {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        TestCalls b = TestCalls.run("bot", "trace-1", "beta", 2);
        CallSignalsCache cache = new CallSignalsCache(2);
        cache.of("a", buffered(a.rewrite(0.0, 0.4), a.embed(0.45, 0.7)).entrySet());
        Map<String, CallSignals> overflow = cache.of("b", buffered(b.rewrite(0.0, 0.4)).entrySet());

        assertThat(overflow).containsOnlyKeys("beta-rewrite");
        assertThat(cache.size()).isEqualTo(2);
        cache.forget("a");
        assertThat(cache.size()).isZero();
    }
}
