package io.raglog.simulator.pipeline;

import io.raglog.schemas.Stage;

/**
 * The faults the simulator knows, per stage (the RAGLog seed's typical faults). The first group is injected; a few
 * arise only naturally, from what the simulated stages really did with the corpus.
 */
public enum FaultType {
    REWRITE_DROPPED_NAME(Stage.REWRITE, "dropped_name"),
    REWRITE_DROPPED_NUMBER(Stage.REWRITE, "dropped_number"),
    REWRITE_DROPPED_DATE(Stage.REWRITE, "dropped_date"),
    REWRITE_CHANGED_MEANING(Stage.REWRITE, "changed_meaning"),
    EMBED_TYPO(Stage.EMBED, "typo"),
    EMBED_TRUNCATED(Stage.EMBED, "truncated"),
    EMBED_LOST_ENTITY(Stage.EMBED, "lost_entity"),
    /** The pipeline embedded another field than its query: the question with chat history, the rewrite prompt. */
    EMBED_WRONG_FIELD(Stage.EMBED, "wrong_field"),
    RETRIEVE_MISSING_EVIDENCE(Stage.RETRIEVE, "missing_evidence"),
    RETRIEVE_OFF_TOPIC(Stage.RETRIEVE, "off_topic"),
    /**
     * Natural only: the question has no answer in the corpus, and none of the passages retrieved is from the paragraph
     * it was asked about, which the store holds (only other paragraphs of its article, if any).
     */
    RETRIEVE_MISSED_ASKED_PASSAGE(Stage.RETRIEVE, "missed_asked_passage"),
    RERANK_EVIDENCE_BELOW_CUTOFF(Stage.RERANK, "evidence_below_cutoff"),
    /**
     * Natural only: the question has no answer in the corpus; the paragraph it was asked about was retrieved and the
     * reranker cut it below its top n.
     */
    RERANK_ASKED_PASSAGE_BELOW_CUTOFF(Stage.RERANK, "asked_passage_below_cutoff"),
    /** The context budget cut the passage that holds the answer before the answer's sentence. */
    ASSEMBLE_EVIDENCE_CUT(Stage.ASSEMBLE, "evidence_cut"),
    /** The passage that holds the answer was handed on and dropped from the prompt whole. */
    ASSEMBLE_EVIDENCE_DROPPED(Stage.ASSEMBLE, "evidence_dropped"),
    /**
     * The passage that holds the answer reached the prompt whole, but the prompt's ordering put it in the middle of a
     * long context, and the model, reading the ends, answered without it ("lost in the middle").
     */
    ASSEMBLE_EVIDENCE_BURIED(Stage.ASSEMBLE, "evidence_buried"),
    GENERATE_UNSUPPORTED_CLAIM(Stage.GENERATE, "unsupported_claim"),
    GENERATE_SWAPPED_FACT(Stage.GENERATE, "swapped_fact"),
    GENERATE_IGNORED_CONTEXT(Stage.GENERATE, "ignored_context"),
    GENERATE_OMITTED_PART(Stage.GENERATE, "omitted_part"),
    /** Natural only: the evidence was in the context and the model picked another span. */
    GENERATE_WRONG_ANSWER(Stage.GENERATE, "wrong_answer"),
    /** Natural only: the evidence was in the context and the model said it did not know. */
    GENERATE_FALSE_ABSTENTION(Stage.GENERATE, "false_abstention"),
    /** Natural only: the question has no answer in the corpus and the model answered anyway. */
    GENERATE_ANSWERED_UNANSWERABLE(Stage.GENERATE, "answered_unanswerable"),
    /**
     * Natural only: the pipeline's own relevance gate judged a context that held the answer insufficient, and nothing
     * was generated ({@link RelevanceGate}).
     */
    GENERATE_GATE_REFUSED(Stage.GENERATE, "gate_refused");

    private final Stage stage;
    private final String id;

    FaultType(Stage stage, String name) {
        this.stage = stage;
        this.id = stage.id() + "." + name;
    }

    public Stage stage() {
        return stage;
    }

    /** The label value, e.g. {@code retrieve.missing_evidence}. */
    public String id() {
        return id;
    }
}
