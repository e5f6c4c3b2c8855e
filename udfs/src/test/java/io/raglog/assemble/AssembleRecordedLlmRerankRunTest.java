package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A LlamaIndex run over Supabase with an LLM as its reranker (LlamaIndex's {@code LLMRerank}: a chat call with the
 * retrieved rows as "Document 1:" blocks, answered "Doc: 1, Relevance: 10" lines), then its text-QA generator, sent
 * without a run hint. The reranking chat call carries the question and documents: read as a generator, it closed the
 * run and the real generator came late. Read as the rerank it is, the run is whole: the rows retrieved, the three the
 * model chose in its order, and those three in the prompt.
 */
class AssembleRecordedLlmRerankRunTest {

    private static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    @RegisterExtension
    final RecordedRunAssembly assembly = new RecordedRunAssembly("supabase");

    @Test
    void shouldReadAnLlmRerankAsTheRerankStageOfTheRunItBelongsTo() throws Exception {
        Run run = assembly.theOneRunOf("openai-embed-query", "rpc-match-documents", "openai-chat-llm-rerank",
                "openai-chat-generate-after-llm-rerank");

        assertThat(run.incomplete()).isFalse();
        assertThat(run.question()).isEqualTo(QUESTION);
        assertThat(run.callIds()).containsExactly("acme-ir-supabase-0002", "acme-ir-supabase-0003",
                "acme-ir-supabase-0007", "acme-ir-supabase-0008");
        assertThat(run.stages().rerank().callIds()).containsExactly("acme-ir-supabase-0007");
        assertThat(run.stages().rerank().model()).isEqualTo("gpt-4o-mini-2024-07-18");
        assertThat(run.stages().rerank().input()).extracting(Passage::id).containsExactly("41", "44", "47", "50");
        assertThat(run.stages().rerank().output()).extracting(Passage::id).containsExactly("41", "44", "50");
        assertThat(run.stages().rerank().output()).extracting(Passage::score).containsExactly(10.0, 7.0, 3.0);
        assertThat(run.stages().generate().callIds()).containsExactly("acme-ir-supabase-0008");
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactly("41", "44", "50");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
        assertThat(run.stages().generate().answer()).isEqualTo("Acme Corp's operating cash flow in 2023 was $4.2 "
                + "billion.");
    }

    /**
     * LlamaIndex's {@code LLMRerank} asks about its documents a batch at a time ({@code choice_batch_size}; its
     * documented example ranks ten in batches of five) and ranks every choice by its relevance. The batches are one
     * rerank: each alone linked as the run's reranker left the other an orphan and half the passages "from nowhere".
     */
    @Test
    void shouldReadTheBatchesOfAnLlmRerankAsOneRerank() throws Exception {
        Run run = assembly.theOneRunOf("openai-embed-query", "rpc-match-documents", "openai-chat-llm-rerank-batch-1",
                "openai-chat-llm-rerank-batch-2", "openai-chat-generate-after-llm-rerank");

        assertThat(run.incomplete()).isFalse();
        assertThat(run.stages().rerank().callIds()).containsExactly("acme-ir-supabase-0013", "acme-ir-supabase-0014");
        assertThat(run.stages().rerank().input()).extracting(Passage::id).containsExactly("41", "44", "47", "50");
        assertThat(run.stages().rerank().output()).extracting(Passage::id).containsExactly("41", "44", "50");
        assertThat(run.stages().rerank().output()).extracting(Passage::score).containsExactly(10.0, 7.0, 3.0);
        assertThat(run.stages().rerank().output()).extracting(Passage::rank).containsExactly(1, 2, 3);
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactly("41", "44", "50");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
    }

    /**
     * LlamaIndex's {@code LLMRerank} keeps its {@code top_n} of the model's choices in its own code, out of sight: the
     * model chose three documents, the prompt got the two best. The third is the reranker's cut, not a passage context
     * assembly dropped (it was, before: every such run lost a passage in assembly).
     */
    @Test
    void shouldReadAnLlmRerankersTopNAsItsOwnCutNotAsAssemblyDroppingTheRest() throws Exception {
        Run run = assembly.theOneRunOf("openai-embed-query", "rpc-match-documents", "openai-chat-llm-rerank",
                "openai-chat-generate-after-llm-rerank-top-two");

        assertThat(run.stages().rerank().output()).extracting(Passage::id).containsExactly("41", "44", "50");
        assertThat(run.stages().generate().context()).extracting(Passage::id).containsExactly("41", "44");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::passageId).containsExactly("41", "44");
        assertThat(run.stages().assemble().passages()).extracting(PassageFate::fate)
                .containsOnly(PassageFate.Fate.WHOLE);
    }
}
