package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
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
}
