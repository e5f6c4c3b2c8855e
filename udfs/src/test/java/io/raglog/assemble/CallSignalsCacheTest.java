package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CallSignalsCacheTest {

    @Test
    void shouldKeepACallsSignalsUntilTheCallLeavesTheBuffer() {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        CallSignalsCache cache = new CallSignalsCache(10);
        CallSignals rewrite = cache.put("k", "alpha-rewrite", new CallSignals(a.rewrite(0.0, 0.4)));
        cache.put("k", "alpha-embed", new CallSignals(a.embed(0.45, 0.7)));

        assertThat(cache.get("k", "alpha-rewrite")).isSameAs(rewrite);
        assertThat(cache.get("other", "alpha-rewrite")).isNull();
        assertThat(cache.size()).isEqualTo(2);
        cache.forget("k", "alpha-rewrite");
        assertThat(cache.get("k", "alpha-rewrite")).isNull();
        assertThat(cache.size()).isEqualTo(1);
        cache.forget("k");
        assertThat(cache.size()).isZero();
        assertThat(cache.get("k", "alpha-embed")).isNull();
    }

    @Test
    void shouldStopRememberingPastItsBoundButStillAnswer() {
        TestCalls a = TestCalls.run("bot", null, "alpha", 1);
        CallSignalsCache cache = new CallSignalsCache(1);
        cache.put("a", "alpha-rewrite", new CallSignals(a.rewrite(0.0, 0.4)));
        CallSignals embed = new CallSignals(a.embed(0.45, 0.7));

        assertThat(cache.put("a", "alpha-embed", embed)).isSameAs(embed);
        assertThat(cache.get("a", "alpha-embed")).isNull();
        assertThat(cache.size()).isEqualTo(1);
        cache.forget("a", "alpha-rewrite");
        cache.put("a", "alpha-embed", embed);
        assertThat(cache.get("a", "alpha-embed")).isSameAs(embed);
    }
}
