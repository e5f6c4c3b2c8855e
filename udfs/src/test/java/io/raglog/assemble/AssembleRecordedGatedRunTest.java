package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The LangChain.js run over Supabase again, with a relevance gate between retrieval and generation (the pattern of
 * "relevance gate before generation": an LLM asked whether the chunks suffice, answering SUFFICIENT or INSUFFICIENT).
 * Sent without its run hint. When the gate said no, the pipeline generated nothing: before raglog read gates, the
 * embedding and the search were left as an incomplete run that nothing checked. Now the gate stands in the generator's
 * place, and the run is whole.
 */
class AssembleRecordedGatedRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    @RegisterExtension
    final RecordedRunAssembly assembly = new RecordedRunAssembly("supabase");

    @Test
    void shouldCloseARunItsRelevanceGateStoppedAsACompleteRunWithTheGateInTheGeneratorsPlace() throws Exception {
        Run run = assembly.theOneRunOf("openai-embed-query", "rpc-match-documents",
                "openai-chat-relevance-gate-insufficient");

        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.callIds()).containsExactly("acme-ir-supabase-0002", "acme-ir-supabase-0003",
                "acme-ir-supabase-0005");
        GenerateStage gate = run.stages().generate();
        assertThat(gate.stoppedByGate()).isTrue();
        assertThat(gate.gateReply()).isEqualTo("INSUFFICIENT");
        assertThat(gate.answer()).isEqualTo(GenerateStage.GATE_STOPPED_ANSWER);
        assertThat(gate.callIds()).containsExactly("acme-ir-supabase-0005");
        // what the gate was shown is read as a prompt's context: every row, whole, under the table's ids
        assertThat(gate.context()).extracting(Passage::id).containsExactly("41", "44", "47", "50");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
    }
}
