package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What kind of thing a finding states about its stage. With the stage and the subject it is the fact's identity: the
 * rule checks, the vector checks and the LLM judge each word a lost name their own way, and the verdict tells it once.
 */
public enum FactKind {
    /** A name, number or date of the question is missing: lost by the rewrite or the embedded text, in no retrieved
     * passage, in no passage the reranker kept. */
    MISSING_TERM,
    /**
     * No passage answers the question (retrieval), or the one that does never reached the generator (reranker, or
     * context assembly when it was handed on and cut or dropped before the prompt).
     */
    MISSING_ANSWER,
    /** A name, number or date of the answer that its context does not hold. */
    UNSUPPORTED_TERM,
    /**
     * A word put in place of one the question said (or the query to embed, or the context sentence an answer copies).
     */
    CHANGED_WORD,
    /** Words that neither the question nor the rewrites said. */
    ADDED_WORDS,
    /** The rewrite asks a different question, or dropped a constraint, by the judge's reading. */
    CHANGED_MEANING,
    /** The text sent for embedding is a cut-off prefix of its query. */
    CUT_OFF,
    /** Nothing was sent for embedding. */
    NO_TEXT,
    /** The passages cover only part of the question, or are off topic, by the judge's reading. */
    WEAK_PASSAGES,
    /** The reranker cut the passage most similar to the question. */
    CUT_MOST_SIMILAR,
    /** The reranker returned passages it was not given. */
    UNKNOWN_PASSAGES,
    /** The kept passages cover less of the question than the reranker's input did. */
    LOST_COVERAGE,
    /** A passage the pipeline's knowledge base is known to hold matches the question better than any retrieved. */
    BETTER_PASSAGE_KNOWN,
    /**
     * The retrieved sentence most like the answer only seems to answer: it lacks the question's "not", says the
     * opposite of one of its words, or its passage never names the number the question names.
     */
    SEEMING_ANSWER,
    /** Context assembly cut or dropped passages handed on to the prompt (the context budget, the template). */
    LOST_IN_ASSEMBLY,
    /** The passage that answers best reached the prompt whole, in the middle of a long one, where models read least. */
    BURIED_IN_PROMPT,
    /** The answer declines to answer. */
    REFUSAL,
    /** The answer is not the kind the question asks for: no time for a "when", no number for a "how many". */
    WRONG_KIND,
    /** A statement of the answer that the context does not back. */
    UNSUPPORTED_STATEMENT,
    /** A statement of the answer that the context contradicts. */
    CONTRADICTED_STATEMENT,
    /** A needed piece the context held and the answer left out. */
    OMITTED_PIECE,
    /** A needed piece the answer states otherwise than its context. */
    CONTRADICTED_PIECE,
    /** A finding given as free text (a model's own words): its text is its subject. */
    OTHER;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
