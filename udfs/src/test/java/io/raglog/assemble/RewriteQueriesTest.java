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
    void shouldReadTheQueriesAStructuredOutputRewriterWroteInItsJson() {
        assertThat(RewriteQueries.split("{\"queries\":[\"Acme cash flow 2023\",\"Acme operating cash 2023\"]}"))
                .containsExactly("Acme cash flow 2023", "Acme operating cash 2023");
        assertThat(RewriteQueries.split("{\"search_query\": \"Yuan capital Marco Polo\", \"year\": null}"))
                .containsExactly("Yuan capital Marco Polo");
        assertThat(RewriteQueries.split("[\"Warsaw rebuilt\", \"Old Town reconstruction\"]"))
                .containsExactly("Warsaw rebuilt", "Old Town reconstruction");
        // JSON with no query in it, or text that only starts like JSON, is read as lines
        assertThat(RewriteQueries.split("{\"reasoning\": \"short\"}")).containsExactly("{\"reasoning\": \"short\"}");
        assertThat(RewriteQueries.split("[1] Warsaw rebuilt")).containsExactly("[1] Warsaw rebuilt");
    }

    @Test
    void shouldKeepAQueryThatEndsWithAColonWhenItIsTheOnlyOne() {
        assertThat(RewriteQueries.split("Warsaw Old Town reconstruction:")).containsExactly(
                "Warsaw Old Town reconstruction:");
    }

    @Test
    void shouldKeepANumberThatOpensAQueryRatherThanReadItAsAListItemsNumber() {
        assertThat(RewriteQueries.split("51.6% was not in favor of what?"))
                .containsExactly("51.6% was not in favor of what?");
        assertThat(RewriteQueries.split("1906. The rules of the game")).containsExactly("1906. The rules of the game");
        assertThat(RewriteQueries.split("1.5 million residents Warsaw\n2.Warsaw population"))
                .containsExactly("1.5 million residents Warsaw", "Warsaw population");
    }
}
