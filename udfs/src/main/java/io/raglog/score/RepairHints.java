package io.raglog.score;

import static io.raglog.checks.FeatureList.ASSEMBLE_ANSWER_DEPTH;
import static io.raglog.checks.FeatureList.ASSEMBLE_CUT;
import static io.raglog.checks.FeatureList.ASSEMBLE_DROPPED;
import static io.raglog.checks.FeatureList.ASSEMBLE_EXTRACTED;
import static io.raglog.checks.FeatureList.ASSEMBLE_HANDED_ON;
import static io.raglog.checks.FeatureList.ASSEMBLE_WINDOW_SHARE;
import static io.raglog.checks.FeatureList.EMBED_ADDED_SHARE;
import static io.raglog.checks.FeatureList.EMBED_ADDED_WORDS;
import static io.raglog.checks.FeatureList.EMBED_LOST_KEY_TERMS;
import static io.raglog.checks.FeatureList.EMBED_NEAR_MISS_WORDS;
import static io.raglog.checks.FeatureList.EMBED_TRUNCATED;
import static io.raglog.checks.FeatureList.FLOW_OMITTED_SHARE;
import static io.raglog.checks.FeatureList.GENERATE_REFUSES;
import static io.raglog.checks.FeatureList.GENERATE_SWAPPED_IN_PLACE;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_NAMES;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_NUMBERS;
import static io.raglog.checks.FeatureList.LLM_RERANK_ANSWER_DROPPED;
import static io.raglog.checks.FeatureList.LLM_RERANK_BAD_ORDER;
import static io.raglog.checks.FeatureList.LLM_RETRIEVE_OFF_TOPIC;
import static io.raglog.checks.FeatureList.LLM_RETRIEVE_PARTIAL;
import static io.raglog.checks.FeatureList.LLM_REWRITE_ADDED;
import static io.raglog.checks.FeatureList.LLM_REWRITE_CHANGED;
import static io.raglog.checks.FeatureList.LLM_SUPPORT_UNSUPPORTED;
import static io.raglog.checks.FeatureList.RERANK_CUT_MOST_SIMILAR;
import static io.raglog.checks.FeatureList.RERANK_INPUT_COUNT;
import static io.raglog.checks.FeatureList.RERANK_OUTPUT_COUNT;
import static io.raglog.checks.FeatureList.RETRIEVE_PASSAGE_COUNT;
import static io.raglog.checks.FeatureList.REWRITE_LOST_DATES;
import static io.raglog.checks.FeatureList.REWRITE_LOST_NAMES;
import static io.raglog.checks.FeatureList.REWRITE_LOST_NUMBERS;

import io.raglog.checks.RuleChecks;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.Locale;
import java.util.Set;

/**
 * What to try first for a flagged stage, in the spirit of Rectify's repair cards: one configuration-level change
 * aimed at the failure the checks point to (R2 noisy retrieval → rerank; R5 multi-part under-retrieval → raise
 * top-k; S3 underused evidence → an evidence-constrained prompt), with the run's own numbers where they help. A hint
 * is a hypothesis for a person to approve and verify, never applied automatically.
 */
public final class RepairHints {

    /**
     * From this share of the embedded content words found in neither the question nor the rewrites, the added text
     * (not the query's own words) is what to fix.
     */
    static final double MOSTLY_ADDED = 0.5;

    private RepairHints() {}

    /**
     * @param present the stages the run had: advice to add a stage the pipeline already has is no advice
     * @param flagged every stage the verdict flags: a stage downstream of a flagged one is fixed after it
     */
    public static String forStage(Stage stage, RunFeatures f, boolean reassigned, Set<Stage> present,
            Set<Stage> flagged) {
        return switch (stage) {
            case REWRITE -> rewrite(f);
            case EMBED -> embed(f);
            case RETRIEVE -> afterQueryFixes(flagged, retrieve(f, present.contains(Stage.RERANK)));
            case RERANK -> rerank(f, reassigned);
            case ASSEMBLE -> assemble(f);
            case GENERATE -> generate(f);
        };
    }

    private static String rewrite(RunFeatures f) {
        int lost = Evidence.count(f, REWRITE_LOST_NAMES) + Evidence.count(f, REWRITE_LOST_NUMBERS)
                + Evidence.count(f, REWRITE_LOST_DATES);
        if (lost > 0) {
            return "Fix the rewrite prompt to keep every name, number and date of the question verbatim (it lost "
                    + lost + "), or retrieve with the original question alongside the rewrite.";
        }
        if (high(f, LLM_REWRITE_CHANGED) || high(f, LLM_REWRITE_ADDED)) {
            return "Constrain the rewrite prompt to rephrase, not re-ask: keep the question's intent and add no "
                    + "assumptions; fall back to the original question when the rewrite drifts.";
        }
        return "Review the rewrite prompt against this question: the rewrite changed what retrieval searched for; "
                + "keep the question's constraints and retrieve with the original question as well.";
    }

    private static String embed(RunFeatures f) {
        if (Evidence.count(f, EMBED_TRUNCATED) > 0) {
            return "Raise the embedding input limit or split long queries into parts instead of cutting them off.";
        }
        boolean lost = Evidence.count(f, EMBED_LOST_KEY_TERMS) > 0;
        Double addedShare = f.feature(EMBED_ADDED_SHARE);
        // a query embedded inside a chat history or a prompt keeps its terms; the near misses the feature then counts
        // ("follow", near the query's "allow") are the added text's own words, not the query's altered
        boolean mostlyAdded = !lost && addedShare != null && addedShare >= MOSTLY_ADDED;
        if (!mostlyAdded && (lost || Evidence.count(f, EMBED_NEAR_MISS_WORDS) > 0)) {
            return "Embed the query exactly as the rewrite produced it: check the templating, normalisation and "
                    + "encoding between the rewrite and the embedding call, which lost or altered key terms.";
        }
        if (Evidence.count(f, EMBED_ADDED_WORDS) > 0) {
            return "Remove the text added to the embedded query (instruction prefix, chat history) or make it match "
                    + "what the index was built with.";
        }
        return "Check that the embedding call receives the rewritten query and uses the model the index was built "
                + "with.";
    }

    /**
     * Retrieval searched with what the rewrite and the query embedding made of the question: when either is flagged
     * too, that is the fix to try first, and retrieval's own knob only if it still misses (on the simulated samples of
     * docs/model-card.md a fifth of retrieval's flags come with one of them).
     */
    private static String afterQueryFixes(Set<Stage> flagged, String hint) {
        boolean rewrite = flagged.contains(Stage.REWRITE);
        boolean embed = flagged.contains(Stage.EMBED);
        if (!rewrite && !embed) {
            return hint;
        }
        String first = rewrite && embed ? "the rewrite and the query embedding (both flagged too): retrieval searched"
                + " with what they made" : rewrite ? "the rewrite (flagged too): retrieval searched with it"
                : "the query embedding (flagged too): retrieval searched with its vector";
        return "Fix " + first + ". If retrieval still misses after that: " + Character.toLowerCase(hint.charAt(0))
                + hint.substring(1);
    }

    private static String retrieve(RunFeatures f, boolean reranks) {
        int returned = Evidence.count(f, RETRIEVE_PASSAGE_COUNT);
        if (high(f, LLM_RETRIEVE_OFF_TOPIC)) {
            // a reranker only reorders what retrieval returned: with one already there, the fix is what is returned.
            // The offline judge reads passages that stayed on the subject without the answer as off topic too (141 of
            // the 149 such flagged misses on the development samples of 2026-12-07), so the hint covers both
            return reranks ? "Retrieval returned no passage that answers, and the reranker can only reorder what it "
                    + "returns: add a keyword (BM25) leg for the question's names and numbers or a metadata filter on "
                    + "its subject, raise top-k, and check that the document holding the answer is indexed and "
                    + "chunked whole."
                    : "Retrieval is noisy: enable a reranker or a metadata filter so off-topic passages stop crowding "
                    + "out relevant ones.";
        }
        if (high(f, LLM_RETRIEVE_PARTIAL)) {
            return "The question has several parts: raise top-k" + (returned > 0 ? " (it returned " + returned + ")"
                    : "") + " or retrieve once per part of the question.";
        }
        return "Raise the retriever's top-k" + (returned > 0 ? " (it returned " + returned + ")" : "")
                + " or add a keyword (BM25) leg for names and numbers; check that the document holding the answer is "
                + "indexed and chunked whole.";
    }

    private static String rerank(RunFeatures f, boolean reassigned) {
        int kept = Evidence.count(f, RERANK_OUTPUT_COUNT);
        int input = Evidence.count(f, RERANK_INPUT_COUNT);
        boolean dropped = reassigned || Evidence.count(f, RERANK_CUT_MOST_SIMILAR) > 0 || high(f, LLM_RERANK_ANSWER_DROPPED)
                || anyOnlyDropped(f);
        if (dropped) {
            return "Raise the reranker's top-n" + (kept > 0 ? " above " + kept + (input > 0 ? " (of " + input + ")" : "")
                    : "") + " so the passage holding the answer reaches the generator, or try a reranker model "
                    + "suited to this domain.";
        }
        if (high(f, LLM_RERANK_BAD_ORDER)) {
            return "Check that the reranker is given the user's question (not an empty or cut query) and that its "
                    + "model suits this domain: it ranked less relevant passages first.";
        }
        return "Compare the reranker's order with the retriever's on this run; raise its top-n or try another "
                + "reranker model.";
    }

    /**
     * The knob is the pipeline's own: its context budget, how it fits passages into it, and their order; or, when
     * every passage cut was cut to extracts, its contextual compressor.
     */
    private static String assemble(RunFeatures f) {
        int handed = Evidence.count(f, ASSEMBLE_HANDED_ON);
        int cut = Evidence.count(f, ASSEMBLE_CUT);
        int dropped = Evidence.count(f, ASSEMBLE_DROPPED);
        Double window = f.feature(ASSEMBLE_WINDOW_SHARE);
        // a budget in the pipeline's own code may leave most of the window unused: "0%" would read as nothing sent
        String filled = window == null ? ""
                : window < 0.01 ? " (the prompt filled under 1% of the model's context window)"
                : String.format(Locale.ROOT, " (the prompt filled %.0f%% of the model's context window)", 100 * window);
        Double depth = f.feature(ASSEMBLE_ANSWER_DEPTH);
        int inPrompt = handed - dropped;
        if (depth != null && depth > 0 && inPrompt >= 4 && !ContextAssemblyRule.lostByAssembly(f)) {
            return "Put the passages that answer best at the ends of the prompt (best first, or best at both ends as "
                    + "LongContextReorder does), or hand on fewer: the passage holding the answer sat in the middle "
                    + "of the " + inPrompt + " in the prompt, and the answer did without it.";
        }
        int extracted = Evidence.count(f, ASSEMBLE_EXTRACTED);
        if (extracted > 0 && extracted == cut) {
            return "Check the context compressor (an LLM extractor such as LLMChainExtractor, or a sentence filter): "
                    + "it kept only extracts of " + extracted + " of the " + handed + " passages handed on"
                    + (dropped > 0 ? " and dropped " + dropped : "") + ", and the sentence that answers did not reach "
                    + "the prompt; loosen its prompt or threshold, or hand the generator whole passages.";
        }
        if (cut > 0) {
            return "Raise the context budget" + filled + " or fit passages whole instead of cutting the last one: it cut "
                    + cut + " of the " + handed + " passages handed on, and the passage holding the answer lost the "
                    + "sentence that answers; check the chat history and template are not eating the budget.";
        }
        if (dropped > 0) {
            return "Raise the context budget" + filled + " or hand on fewer, better passages: it dropped " + dropped
                    + " of the " + handed + " passages handed on, among them the one holding the answer; check that "
                    + "the prompt's ordering spends the budget on the reranker's best passages first.";
        }
        return "Compare the passages handed on with the prompt on this run: the passage holding the answer did not "
                + "reach the model whole; check the context budget, the template and the order passages go in.";
    }

    private static String generate(RunFeatures f) {
        Double omitted = f.feature(FLOW_OMITTED_SHARE);
        if (RuleChecks.stoppedByGate(f)) {
            return inContext(f)
                    ? "The pipeline's relevance gate stopped this run although its context held the needed "
                            + "information: loosen the gate (its prompt, its model, or a threshold on its score), or "
                            + "show it the passages whole."
                    : "The pipeline's relevance gate stopped this run: see the retrieval's and the knowledge base's "
                            + "findings for why the context fell short.";
        }
        if (Evidence.count(f, GENERATE_REFUSES) > 0 && inContext(f)) {
            return "The answer abstained although its context held the needed information: loosen the abstention "
                    + "instruction or put the most relevant passage first.";
        }
        if (Evidence.count(f, GENERATE_SWAPPED_IN_PLACE) > 0) {
            return "The answer copied a sentence of its context and wrote another name or number into it: lower the "
                    + "generator's temperature, have it quote names, numbers and dates as the passage gives them, or "
                    + "check them against the cited passage before the answer is sent.";
        }
        boolean leftOut = omitted != null && omitted > 0;
        // an answer that says what its context does not is the worse fault: what it left out comes second
        Double unsupported = f.feature(LLM_SUPPORT_UNSUPPORTED);
        boolean invented = (unsupported != null && unsupported > 0)
                || Evidence.count(f, GENERATE_UNSUPPORTED_NUMBERS) > 0
                || Evidence.count(f, GENERATE_UNSUPPORTED_NAMES) > 0;
        if (leftOut && !invented) {
            return "Ask the generator to answer every part of the question from all relevant passages: it left out "
                    + "information its context held.";
        }
        return "Constrain the prompt to the evidence: answer only from the context, cite the passage for each claim, "
                + "and abstain when the context does not say." + (leftOut ? " It also left out information its "
                + "context held." : "");
    }

    private static boolean high(RunFeatures f, String feature) {
        Double v = f.feature(feature);
        return v != null && v >= Evidence.CONFIDENT;
    }

    private static boolean anyOnlyDropped(RunFeatures f) {
        return f.evidenceFlow() != null && f.evidenceFlow().anyOnlyInDropped();
    }

    private static boolean inContext(RunFeatures f) {
        if (f.evidenceFlow() == null || f.evidenceFlow().pieces() == null) {
            return false;
        }
        for (EvidencePiece p : f.evidenceFlow().pieces()) {
            if (p.location() == EvidenceLocation.IN_CONTEXT) {
                return true;
            }
        }
        return false;
    }

    /**
     * A flagged embed stage's evidence when its query model does not match its index's: that sentence first, then what
     * the checks found (if they flagged it too).
     */
    public static java.util.List<String> withMismatch(io.raglog.schemas.EmbeddingMismatch mismatch,
            java.util.List<String> found) {
        java.util.List<String> out = new java.util.ArrayList<>();
        out.add(mismatch.text());
        out.addAll(found);
        return java.util.List.copyOf(out);
    }
}
