package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.calls.otlp.OtlpDecoding;
import io.raglog.calls.otlp.OtlpJsonDecoder;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A LangChain RAG run traced by an LLM-observability SDK that exports OTLP under attribute names of its own (Langfuse,
 * MLflow), end to end as the job takes it: the OTLP/JSON message decoded, its stage spans classified by the built-in
 * adapters and handed on as assembly holds them, under the trace's id as their run hint. The spans of one trace must
 * make one complete run whose passages keep their identity from retrieval to the prompt.
 */
class AssembleTracedSdkRunsTest {

    private static final String QUESTION = "What was Acme's operating cash flow in 2023?";
    private static final String ANSWER = "Acme's net cash provided by operating activities was $1.42 billion"
            + " (1,421 million) in fiscal 2023, up from $1.18 billion in fiscal 2022.";

    @RegisterExtension
    final RecordedRunAssembly assembly = new RecordedRunAssembly();

    @Test
    void shouldAssembleTheSpansOfALangfuseTraceIntoOneRun() throws Exception {
        Run run = assembly.theOneRunOf(tracedCalls("langfuse-langchain-rag.json"));
        List<String> retrieved = List.of("acme-10k-2023-p47-c2", "acme-10k-2022-p44-c1", "acme-10k-2023-p48-c0",
                "acme-q4-2023-pr-c3");

        assertThat(run.runHint()).isEqualTo("7c1e4b2a9d3f4e5a8b6c0d1e2f3a4b5c");
        assertThat(run.pipeline()).isEqualTo("acme-support-rag");
        assertCompleteAndAnswered(run);
        assertThat(run.callIds()).hasSize(2);
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id).containsExactlyElementsOf(retrieved);
        assertThat(run.stages().rerank().present()).isFalse();
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactlyElementsOf(retrieved);
        assertThat(run.stages().generate().model()).isEqualTo("gpt-4o-mini-2024-07-18");
    }

    @Test
    void shouldAssembleTheSpansOfAnMlflowTraceIntoOneRun() throws Exception {
        Run run = assembly.theOneRunOf(tracedCalls("mlflow-langchain-rag.json"));
        List<String> retrieved = List.of("acme-10k-2023-p47-c2", "acme-10k-2022-p44-c1", "acme-10k-2023-p48-c0",
                "acme-q4-2023-pr-c3", "acme-10k-2023-p52-c4");
        List<String> kept = List.of("acme-10k-2023-p48-c0", "acme-10k-2023-p47-c2", "acme-10k-2022-p44-c1");

        assertThat(run.runHint()).isEqualTo("4f3e2d1c0b9a88776655443322110fed");
        assertCompleteAndAnswered(run);
        assertThat(run.callIds()).hasSize(4);
        assertThat(run.stages().embed().present()).isTrue();
        assertThat(run.stages().embed().texts()).containsExactly(QUESTION);
        assertThat(run.stages().retrieve().passages()).extracting(Passage::id).containsExactlyElementsOf(retrieved);
        assertThat(run.stages().rerank().output()).extracting(Passage::id).containsExactlyElementsOf(kept);
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactlyElementsOf(kept);
    }

    private static void assertCompleteAndAnswered(Run run) {
        assertThat(run.incomplete()).as(run.incompleteReason()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.stages().retrieve().query()).isEqualTo(QUESTION);
        assertThat(run.stages().retrieve().reconstructed()).isFalse();
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
        assertThat(run.stages().generate().answer()).isEqualTo(ANSWER);
    }

    /** The trace's stage spans as calls, in the order of the trace, classified and held as assembly holds them. */
    private static List<ClassifiedCall> tracedCalls(String fixture) throws IOException {
        OtlpDecoding decoding = new OtlpJsonDecoder().decode(otlpJson(fixture));
        assertThat(decoding.failed()).as(decoding.error()).isFalse();
        List<ClassifiedCall> calls = new ArrayList<>();
        for (CallEvent call : decoding.calls()) {
            Classification c = BuiltInAdapters.classifier().classify(call);
            assertThat(c).as(call.request().url()).isInstanceOf(Classification.Classified.class);
            calls.add(((Classification.Classified) c).call().forAssembly());
        }
        return calls;
    }

    private static byte[] otlpJson(String fixture) throws IOException {
        try (InputStream in = AssembleTracedSdkRunsTest.class.getResourceAsStream("/otlp/" + fixture)) {
            assertThat(in).as("/otlp/" + fixture).isNotNull();
            return in.readAllBytes();
        }
    }
}
