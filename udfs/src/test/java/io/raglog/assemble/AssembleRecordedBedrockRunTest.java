package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run on Amazon Bedrock as its recorded calls show it (a knowledge base's retrieval, Bedrock's rerank, a Converse
 * generator; no embedding call, as the knowledge base embeds the question itself), sent without its run hint:
 * content alone must link the three into one run whose passages keep their identity from retrieval to the prompt.
 */
class AssembleRecordedBedrockRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    private RecordedRuns bedrock;

    @BeforeEach
    void setUp() throws Exception {
        bedrock = new RecordedRuns("bedrock");
    }

    @AfterEach
    void tearDown() throws Exception {
        bedrock.close();
    }

    @Test
    void shouldAssembleAnUnhintedBedrockRunFromItsRecordedCalls() throws Exception {
        Run run = bedrock.theOneRunOf("knowledge-base-retrieve", "rerank", "converse-generate");

        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.callIds()).containsExactlyInAnyOrder("acme-ir-bedrock-0003", "acme-ir-bedrock-0004",
                "acme-ir-bedrock-0005");
        assertThat(run.stages().embed().present()).isFalse();
        assertThat(run.stages().retrieve().query()).isEqualTo(QUESTION);
        List<String> retrieved = run.stages().retrieve().passages().stream().map(Passage::id).toList();
        assertThat(retrieved).containsExactly("1%3A0%3Ac0ffee00", "1%3A0%3Ac0ffee01", "1%3A0%3Ac0ffee02",
                "1%3A0%3Ac0ffee03");
        // the reranker kept the first, third and second retrieved passages, and all three reached the prompt whole
        List<String> kept = List.of(retrieved.get(0), retrieved.get(2), retrieved.get(1));
        assertThat(run.stages().rerank().output()).extracting(Passage::id).containsExactlyElementsOf(kept);
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactlyElementsOf(kept);
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
        assertThat(run.stages().generate().answer()).startsWith("Acme Corp's operating cash flow in 2023");
    }

    @Test
    void shouldAssembleARetrieveAndGenerateCallAsARunWhoseRetrievalIsRebuiltFromItsPassages() throws Exception {
        Run run = bedrock.theOneRunOf("retrieve-and-generate");

        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.stages().generate().context()).hasSize(2);
        assertThat(run.stages().retrieve().reconstructed()).isTrue();
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id)
                .containsExactlyElementsOf(run.stages().generate().context().stream().map(Passage::id).toList());
    }
}
