package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryInstructionTest {

    private static final List<String> SOURCES = List.of("Super Bowl 50 winner", "Who won Super Bowl 50?");

    @Test
    void shouldReadAnInstructionOnlyBeforeAColonNearTheStart() {
        assertThat(QueryInstruction.after("query: a b")).isEqualTo("a b");
        assertThat(QueryInstruction.after("why? because: this")).isNull();
        assertThat(QueryInstruction.after("no colon here")).isNull();
        assertThat(QueryInstruction.after("query:")).isNull();
    }

    @Test
    void shouldTakeEachModelFamilysInstructionOffTheQuery() {
        for (String instruction : List.of("query: ", "search_query: ",
                "Represent this sentence for searching relevant passages: ", "query: search_query: ")) {
            assertThat(QueryInstruction.queryOf(instruction + "Super Bowl 50 winner", SOURCES)).as(instruction)
                    .isEqualTo("Super Bowl 50 winner");
        }
    }

    @Test
    void shouldKeepAPhraseBeforeAColonThatTheQueryItselfSays() {
        assertThat(QueryInstruction.queryOf("Super Bowl 50: who won", SOURCES)).isEqualTo("Super Bowl 50: who won");
        assertThat(QueryInstruction.queryOf("query: Super Bowl 50: who won", SOURCES))
                .isEqualTo("Super Bowl 50: who won");
    }

    @Test
    void shouldKeepAPromptsFieldsWhichAPipelineEmbedsByMistake() {
        String rewritePrompt = "Rewrite the following question for a search engine.\nQuestion: Who won Super Bowl 50?";
        assertThat(QueryInstruction.queryOf(rewritePrompt, SOURCES)).isEqualTo(rewritePrompt);
        String condense = "Chat History:\nHuman: hi\nFollow Up Input: Who won Super Bowl 50?\nStandalone question:";
        assertThat(QueryInstruction.queryOf(condense, SOURCES)).isEqualTo(condense);
        assertThat(QueryInstruction.queryOf("query: " + rewritePrompt, SOURCES)).isEqualTo(rewritePrompt);
    }

    @Test
    void shouldLeaveATextWithoutAnInstructionAsItIs() {
        assertThat(QueryInstruction.queryOf("Super Bowl 50 winner", SOURCES)).isEqualTo("Super Bowl 50 winner");
        assertThat(QueryInstruction.queryOf(null, SOURCES)).isNull();
        assertThat(QueryInstruction.queriesOf(List.of("query: a b", "c"), SOURCES)).containsExactly("a b", "c");
    }
}
