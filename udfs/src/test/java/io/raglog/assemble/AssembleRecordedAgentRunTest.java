package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An agent answering through OpenAI's function calling over Supabase, sent without a run hint: its first turn calls
 * its search tool ({@code search_filings}, the query in the tool call's arguments, no content), the query is
 * embedded and searched, and its second turn carries the tool's result and answers. The first turn is the run's
 * rewrite: the agent wrote the query its store was searched with. Read as no stage, the run had no rewrite, the
 * embedding of a query nobody wrote stood apart from the question, and a query that dropped the year would have been
 * the embedding's fault.
 */
class AssembleRecordedAgentRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";
    private static final String QUERY = "Acme Corp operating cash flow 2023";

    @RegisterExtension
    final RecordedRunAssembly assembly = new RecordedRunAssembly("supabase");

    @Test
    void shouldReadAnAgentsCallToItsSearchToolAsTheRewriteOfItsRun() throws Exception {
        Run run = assembly.theOneRunOf("openai-chat-agent-search-call", "openai-embed-agent-query",
                "rpc-match-documents", "openai-chat-agent-answer");

        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.callIds()).containsExactly("acme-ir-supabase-0016", "acme-ir-supabase-0017",
                "acme-ir-supabase-0003", "acme-ir-supabase-0018");
        assertThat(run.stages().rewrite().callIds()).containsExactly("acme-ir-supabase-0016");
        assertThat(run.stages().rewrite().outputs()).containsExactly(QUERY);
        assertThat(run.stages().embed().texts()).containsExactly(QUERY);
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id).containsExactly("41", "44", "47", "50");
        assertThat(run.stages().generate().callIds()).containsExactly("acme-ir-supabase-0018");
        // the tool's result is the generator's context: every row retrieved, whole
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactly("41", "44", "47", "50");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
        assertThat(run.stages().generate().answer()).isEqualTo("Acme Corp's operating cash flow in 2023 was $4.2 "
                + "billion, up from $3.1 billion in 2022.");
    }

    /**
     * The agent reads what its first search found and searches again before it answers: its second turn carries the
     * first's tool call and result, and calls the tool with another query. Both turns are the run's rewriter (the one
     * agent, called per search), both searches its retrieval. Read as a rewriter of its own, the second turn began a
     * second run that took the answer, and the first search was left as an unanswered run of the same question.
     */
    @Test
    void shouldReadAnAgentThatSearchedTwiceAsOneRunOfTwoRewrites() throws Exception {
        Run run = assembly.theOneRunOf(SEARCHED_TWICE);

        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.callIds()).containsExactly("acme-ir-supabase-0016", "acme-ir-supabase-0017",
                "acme-ir-supabase-0003", "acme-ir-supabase-0019", "acme-ir-supabase-0020", "acme-ir-supabase-0021",
                "acme-ir-supabase-0022");
        assertThat(run.stages().rewrite().callIds()).containsExactly("acme-ir-supabase-0016",
                "acme-ir-supabase-0019");
        assertThat(run.stages().rewrite().outputs()).containsExactly(QUERY, SECOND_QUERY);
        assertThat(run.stages().embed().texts()).containsExactly(QUERY, SECOND_QUERY);
        // both searches' rows, each once: the second found 41 and 44 again
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id)
                .containsExactly("41", "44", "47", "50", "53", "56");
        assertThat(run.stages().generate().context()).extracting(Passage::id)
                .containsExactly("41", "44", "47", "50", "53", "56");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
    }

    /**
     * Two users ask the same question at once and the agent, at temperature 0, takes the same two searches for each:
     * two runs, each whole, each of both turns, both searches and an answer. Their texts are the same, so which run
     * takes which of the twin calls is not told (the tool calls' ids would tell, and raglog does not read them); that
     * neither run takes both twins, or is left without its turns, is.
     */
    @Test
    void shouldKeepTwoAgentsAskingTheSameQuestionAtOnceApart() throws Exception {
        List<ClassifiedCall> calls = new ArrayList<>();
        for (String file : SEARCHED_TWICE) {
            calls.add(assembly.unhinted(file, "", 0));
            calls.add(assembly.unhinted(file, "twin-", 300));
        }
        calls.sort(Comparator.comparing((ClassifiedCall c) -> c.event().endedAt()));

        List<Run> runs = assembly.runsOf(calls);

        assertThat(runs).hasSize(2).allSatisfy(run -> {
            assertThat(run.incomplete()).isFalse();
            assertThat(run.callIds()).hasSize(7);
            assertThat(run.stages().rewrite().outputs()).containsExactly(QUERY, SECOND_QUERY);
            assertThat(run.stages().embed().texts()).containsExactly(QUERY, SECOND_QUERY);
            assertThat(run.stages().retrieve().callIds()).hasSize(2);
            assertThat(run.stages().generate().context()).hasSize(6);
        });
    }

    private static final String SECOND_QUERY = "Acme Corp net cash provided by operating activities fiscal 2023 "
            + "quarterly";

    private static final String[] SEARCHED_TWICE = {"openai-chat-agent-search-call", "openai-embed-agent-query",
        "rpc-match-documents", "openai-chat-agent-second-search-call", "openai-embed-agent-second-query",
        "rpc-match-documents-agent-second-search", "openai-chat-agent-answer-after-second-search"};
}
