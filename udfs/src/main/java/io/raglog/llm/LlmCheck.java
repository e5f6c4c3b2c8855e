package io.raglog.llm;

import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.List;

/**
 * The five LLM checks of a run, one call each, issued together. A check whose stage the run lacks is skipped;
 * economy mode drops the statement-by-statement support check (the most expensive, and the least missed).
 */
public enum LlmCheck {
    /** The rewriter's typical faults: dropped constraints, a changed meaning, added content. */
    REWRITE("rewrite", Stage.REWRITE, 1),
    /** Retrieval: no passage answers the question, or the passages cover only part of it. */
    RETRIEVAL("retrieval", Stage.RETRIEVE, 1),
    /** The reranker: a needed passage dropped, a bad order. */
    RERANK("rerank", Stage.RERANK, 1),
    /** Statement-by-statement support of the answer by its context. */
    SUPPORT("support", Stage.GENERATE, 1),
    /**
     * Needed information from the question alone, where it was found, what the answer did with it. Prompt v2: a
     * "dropped" entry may be the part of a passage the context budget cut off, under that passage's id.
     */
    EVIDENCE_FLOW("evidence_flow", Stage.GENERATE, 2);

    private final String id;
    private final Stage stage;
    private final int promptVersion;

    LlmCheck(String id, Stage stage, int promptVersion) {
        this.id = id;
        this.stage = stage;
        this.promptVersion = promptVersion;
    }

    public String id() {
        return id;
    }

    /** The stage whose presence the check needs and whose findings it writes. */
    public Stage stage() {
        return stage;
    }

    /** The versioned prompt file under {@code prompts/}: a prompt whose meaning changes gets a new version. */
    public String promptFile() {
        return id.replace('_', '-') + ".v" + promptVersion + ".txt";
    }

    public boolean appliesTo(Run run) {
        if (!run.has(stage)) {
            return false;
        }
        return this != EVIDENCE_FLOW || run.has(Stage.RETRIEVE) || run.has(Stage.RERANK);
    }

    /** The checks to ask for this run, in a fixed order. */
    public static List<LlmCheck> forRun(Run run, boolean economy) {
        List<LlmCheck> out = new ArrayList<>();
        for (LlmCheck c : values()) {
            if (c.appliesTo(run) && !(economy && c == SUPPORT)) {
                out.add(c);
            }
        }
        return out;
    }
}
