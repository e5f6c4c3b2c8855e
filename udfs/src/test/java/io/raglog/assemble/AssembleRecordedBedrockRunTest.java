package io.raglog.assemble;

import io.raglog.schemas.Run;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run on Amazon Bedrock as its recorded calls show it (a knowledge base's retrieval, Bedrock's rerank, a Converse
 * generator; no embedding call, as the knowledge base embeds the question itself), sent without its run hint:
 * content alone must link the three into one run whose passages keep their identity from retrieval to the prompt.
 */
class AssembleRecordedBedrockRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    @RegisterExtension
    final RecordedRunAssembly assembly = new RecordedRunAssembly("bedrock");

    @Test
    void shouldAssembleAnUnhintedBedrockRunFromItsRecordedCalls() throws Exception {
        Run run = assembly.theOneRunOf("knowledge-base-retrieve", "rerank", "converse-generate");

        RecordedRunAssembly.assertRetrievedRerankedAndAnswered(run, QUESTION, List.of("acme-ir-bedrock-0003",
                "acme-ir-bedrock-0004", "acme-ir-bedrock-0005"), List.of("1%3A0%3Ac0ffee00", "1%3A0%3Ac0ffee01",
                "1%3A0%3Ac0ffee02", "1%3A0%3Ac0ffee03"));
    }

    @Test
    void shouldAssembleARetrieveAndGenerateCallAsARunWhoseRetrievalIsRebuiltFromItsPassages() throws Exception {
        Run run = assembly.theOneRunOf("retrieve-and-generate");

        RecordedRunAssembly.assertRebuiltFromTheGeneratorsPassages(run, QUESTION, 2);
    }
}
