package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A LangChain.js run over Supabase as its recorded calls show it, sent without its run hint: the question embedded by
 * OpenAI (base64, as the SDK asks for it), {@code match_documents} called through PostgREST with the decoded vector
 * and no query text, an OpenAI chat whose prompt holds the rows' contents. The search carries no text: its vector
 * links it to the embedding, and its rows, by their content, to the prompt, where they must arrive whole under the
 * table's ids.
 */
class AssembleRecordedSupabaseRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    @RegisterExtension
    final RecordedRunAssembly assembly = new RecordedRunAssembly("supabase");

    @Test
    void shouldLinkAMatchDocumentsSearchToTheEmbeddingByItsVectorAndItsRowsToThePrompt() throws Exception {
        Run run = assembly.theOneRunOf("openai-embed-query", "rpc-match-documents", "openai-chat-generate");

        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.callIds()).containsExactly("acme-ir-supabase-0002", "acme-ir-supabase-0003",
                "acme-ir-supabase-0004");
        assertThat(run.stages().embed().model()).isEqualTo("text-embedding-3-small");
        assertThat(run.stages().embed().dimensions()).isEqualTo(128);
        assertThat(run.stages().retrieve().store()).isEqualTo("supabase");
        assertThat(run.stages().retrieve().query()).isNull();
        assertThat(run.stages().retrieve().topK()).isEqualTo(4);
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id).containsExactly("41", "44", "47", "50");
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactly("41", "44", "47", "50");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
        assertThat(run.stages().generate().answer()).startsWith("Acme Corp's operating cash flow in 2023 was");
    }
}
