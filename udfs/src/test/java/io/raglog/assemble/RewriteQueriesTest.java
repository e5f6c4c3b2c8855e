package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The queries in a rewriter's reply, as multi-query rewriters and hosted chat models write them. */
class RewriteQueriesTest {

    @Test
    void shouldReadOneQueryPerLineWithoutItsNumberBulletOrQuotes() {
        assertThat(RewriteQueries.split("1. Yuan dynasty capital\n2) Khanbaliq history\n- \"Marco Polo Cambaluc\""))
                .containsExactly("Yuan dynasty capital", "Khanbaliq history", "Marco Polo Cambaluc");
    }

    @Test
    void shouldLeaveOutTheLineThatIntroducesTheQueries() {
        assertThat(RewriteQueries.split("Here are three alternative versions of the user question:\n\n"
                + "1. What was the Yuan capital called by Marco Polo?\n2. Marco Polo name for Khanbaliq\n"
                + "3. Cambaluc Yuan dynasty"))
                .containsExactly("What was the Yuan capital called by Marco Polo?", "Marco Polo name for Khanbaliq",
                        "Cambaluc Yuan dynasty");
    }

    @Test
    void shouldReadALabelledQueryWithoutItsLabel() {
        assertThat(RewriteQueries.split("**Rewritten query:** Yuan dynasty capital name Marco Polo"))
                .containsExactly("Yuan dynasty capital name Marco Polo");
        assertThat(RewriteQueries.split("Search query: \"Warsaw rebuilt 1950s\""))
                .containsExactly("Warsaw rebuilt 1950s");
    }

    @Test
    void shouldKeepAQueryThatEndsWithAColonWhenItIsTheOnlyOne() {
        assertThat(RewriteQueries.split("Warsaw Old Town reconstruction:")).containsExactly(
                "Warsaw Old Town reconstruction:");
    }
}
