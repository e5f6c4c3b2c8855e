package io.raglog.checks;

import io.raglog.schemas.Stage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The named, versioned list of features the checks produce, each owned by the stage it describes. Every stage's
 * classifier reads the whole list (a fault leaves traces in later stages: a dropped year also shows in retrieval),
 * {@link #forStage} says which features describe the stage itself. Adding, removing or redefining a feature bumps
 * {@link #VERSION}: trained models are tied to the list they were trained on.
 */
public final class FeatureList {

    public static final String VERSION = "raglog.checks/v12";

    /**
     * Lists that only add features to the one before (none redefined or removed), so a model trained on the earlier
     * list still reads the later one's vectors: v3 added the known-passages features to v2, v4 the context-assembly
     * stage's features and the reranker's own cut, v5 whether the answer is the kind the question asks for, v6 how
     * high the passages assembly lost were ranked, v7 how many a contextual compressor kept extracts of, v8 the
     * question words a rewrite replaced in place, v9 how many of those by their opposite, v10 the names and numbers an
     * answer wrote over in the context sentence it copies, v11 an answer that restates the question turned against it,
     * v12 where the answer came from, read statement by statement.
     */
    private static final Map<String, String> ADDS_TO = Map.of("raglog.checks/v12", "raglog.checks/v11",
            "raglog.checks/v11", "raglog.checks/v10",
            "raglog.checks/v10", "raglog.checks/v9",
            "raglog.checks/v9", "raglog.checks/v8",
            "raglog.checks/v8", "raglog.checks/v7",
            "raglog.checks/v7", "raglog.checks/v6",
            "raglog.checks/v6", "raglog.checks/v5",
            "raglog.checks/v5", "raglog.checks/v4",
            "raglog.checks/v4", "raglog.checks/v3", "raglog.checks/v3", "raglog.checks/v2");

    /** Whether vectors of list {@code version} can be read by a model trained on list {@code trainedOn}. */
    public static boolean extendsList(String version, String trainedOn) {
        for (String v = version; v != null; v = ADDS_TO.get(v)) {
            if (v.equals(trainedOn)) {
                return true;
            }
        }
        return false;
    }

    /** Which kind of check computes a feature: the cost grows from rules to LLM. */
    public enum Kind { RULE, VECTOR, LLM }

    public record Feature(String name, Stage stage, Kind kind, String description) {}

    // Rule checks
    public static final String REWRITE_OUTPUT_COUNT = "rewrite.output_count";
    public static final String REWRITE_LOST_NAMES = "rewrite.lost_names";
    public static final String REWRITE_LOST_NUMBERS = "rewrite.lost_numbers";
    public static final String REWRITE_LOST_DATES = "rewrite.lost_dates";
    public static final String REWRITE_LOST_SHARE = "rewrite.lost_key_term_share";
    public static final String REWRITE_WORST_OUTPUT_LOST_SHARE = "rewrite.worst_output_lost_share";
    public static final String EMBED_TEXT_COUNT = "embed.text_count";
    public static final String EMBED_LOST_KEY_TERMS = "embed.lost_key_terms";
    public static final String EMBED_LOST_SHARE = "embed.lost_key_term_share";
    public static final String EMBED_NEAR_MISS_WORDS = "embed.near_miss_words";
    public static final String EMBED_ADDED_WORDS = "embed.added_words";
    public static final String EMBED_ADDED_SHARE = "embed.added_word_share";
    public static final String EMBED_TRUNCATED = "embed.truncated";
    public static final String EMBED_LENGTH_RATIO = "embed.length_ratio";
    public static final String RETRIEVE_PASSAGE_COUNT = "retrieve.passage_count";
    public static final String RETRIEVE_RECONSTRUCTED = "retrieve.reconstructed";
    public static final String RETRIEVE_KEY_TERMS_MISSING = "retrieve.key_terms_missing";
    public static final String RETRIEVE_BEST_TERM_COVERAGE = "retrieve.best_passage_term_coverage";
    public static final String RERANK_INPUT_COUNT = "rerank.input_count";
    public static final String RERANK_OUTPUT_COUNT = "rerank.output_count";
    public static final String RERANK_DROPPED_COUNT = "rerank.dropped_count";
    public static final String RERANK_UNKNOWN_IDS = "rerank.unknown_output_ids";
    public static final String RERANK_ORDER_VS_INPUT = "rerank.order_vs_input_tau";
    public static final String RERANK_INPUT_TOP_DROPPED = "rerank.input_top_dropped";
    public static final String RERANK_KEY_TERMS_LOST = "rerank.key_terms_lost";
    public static final String GENERATE_CONTEXT_COUNT = "generate.context_count";
    public static final String GENERATE_REFUSES = "generate.answer_refuses";
    public static final String GENERATE_UNSUPPORTED_NUMBERS = "generate.unsupported_numbers";
    public static final String GENERATE_UNSUPPORTED_NAMES = "generate.unsupported_names";
    public static final String GENERATE_UNSUPPORTED_SHARE = "generate.unsupported_term_share";
    // v2: content words (not only names, numbers and dates), and whether one sentence answers the question
    public static final String REWRITE_LOST_WORDS = "rewrite.lost_content_words";
    public static final String REWRITE_ADDED_WORDS = "rewrite.added_content_words";
    public static final String RETRIEVE_ANSWER_MATCH = "retrieve.best_answer_sentence_match";
    public static final String RERANK_DROPPED_ANSWER_GAP = "rerank.dropped_answer_sentence_gap";
    public static final String GENERATE_CONTEXT_ANSWER_MATCH = "generate.context_answer_sentence_match";
    public static final String GENERATE_ANSWER_FOUND = "generate.answer_words_in_one_sentence";
    public static final String GENERATE_ANSWER_SOURCE_MATCH = "generate.answer_source_sentence_match";
    public static final String GENERATE_ANSWER_MISSING_WORDS = "generate.answer_words_missing_from_source";
    // v5: the kind of answer the question asks for (AnswerType)
    public static final String GENERATE_WRONG_KIND = "generate.answer_not_the_kind_asked";
    // v3: a second opinion from the passages the pipeline's other runs were handed (KnownPassages)
    public static final String RETRIEVE_WEIGHTED_MATCH = "retrieve.rarity_weighted_match";
    public static final String RETRIEVE_UNRETURNED_MATCH_GAIN = "retrieve.unreturned_match_gain";
    public static final String RETRIEVE_UNRETURNED_ANSWER_GAIN = "retrieve.unreturned_answer_sentence_gain";
    // v4: context assembly (what of the passages handed on reached the prompt), and the reranker's own cut apart
    public static final String ASSEMBLE_HANDED_ON = "assemble.handed_on_count";
    public static final String ASSEMBLE_CUT = "assemble.cut_count";
    public static final String ASSEMBLE_DROPPED = "assemble.dropped_count";
    public static final String ASSEMBLE_LOST_SHARE = "assemble.lost_text_share";
    public static final String ASSEMBLE_LOST_ANSWER_MATCH = "assemble.lost_answer_sentence_match";
    public static final String ASSEMBLE_LOST_ANSWER_GAP = "assemble.lost_answer_sentence_gap";
    public static final String ASSEMBLE_ANSWER_DEPTH = "assemble.answer_passage_depth";
    public static final String ASSEMBLE_WINDOW_SHARE = "assemble.prompt_window_share";
    public static final String RERANK_CUT_ANSWER_GAP = "rerank.own_cut_answer_sentence_gap";
    public static final String ASSEMBLE_LOST_SIM_GAP = "assemble.lost_similarity_gap";
    public static final String ASSEMBLE_FLOW_LOST = "assemble.flow_lost_share";
    // v6: how high the stage before ranked what assembly lost
    public static final String ASSEMBLE_LOST_RANK_WEIGHT = "assemble.lost_rank_weight";
    // v7: the passages a contextual compressor kept extracts of, among those cut (the cut count, as v6 defined it,
    // counts them: before v7 they were read as dropped, or the stage as absent when nothing else reached the prompt)
    public static final String ASSEMBLE_EXTRACTED = "assemble.extracted_count";

    // Vector checks
    public static final String REWRITE_SIM_QUESTION = "rewrite.min_similarity_to_question";
    public static final String EMBED_SIM_SOURCE = "embed.min_similarity_to_source";
    public static final String EMBED_SIM_QUESTION = "embed.min_similarity_to_question";
    public static final String RETRIEVE_TOP_SIM = "retrieve.top_similarity";
    public static final String RETRIEVE_MEAN_SIM = "retrieve.mean_similarity";
    public static final String RETRIEVE_MOST_SIMILAR_RANK = "retrieve.most_similar_rank";
    public static final String RERANK_SIM_CORRELATION = "rerank.similarity_rank_correlation";
    public static final String RERANK_CUT_MOST_SIMILAR = "rerank.cut_most_similar";
    public static final String RERANK_TOP_SIM_GAP = "rerank.top_similarity_gap";
    public static final String GENERATE_CONTEXT_TOP_SIM = "generate.context_top_similarity";
    public static final String GENERATE_ANSWER_CONTEXT_SIM = "generate.answer_context_similarity";
    public static final String GENERATE_ANSWER_QUESTION_SIM = "generate.answer_question_similarity";
    public static final String REWRITE_SUBSTITUTED = "rewrite.substituted_words";
    // v8: words replaced where they stood, opposites included (InPlaceSubstitutions)
    public static final String REWRITE_SUBSTITUTED_IN_PLACE = "rewrite.substituted_in_place";
    // v9: of those, the question words written over by their opposite (SureSignsRule)
    public static final String REWRITE_OPPOSITE_IN_PLACE = "rewrite.opposite_in_place";
    // v10: names and numbers an answer wrote over in the context sentence it copies (SwappedFacts, SureSignsRule)
    public static final String GENERATE_SWAPPED_IN_PLACE = "generate.swapped_in_place";
    // v11: an answer that restates the question turned against it (Contrasts)
    public static final String GENERATE_TURNED_AGAINST_QUESTION = "generate.turned_against_question";
    // v12: the answer read statement by statement (AnswerSentences.statements)
    public static final String GENERATE_ANSWERING_STATEMENT_MATCH = "generate.answering_statement_source_match";
    public static final String GENERATE_ANSWERING_STATEMENT_GAP = "generate.answering_statement_source_gap";

    // LLM checks (0-100 confidences as the judge gave them; shares 0-1)
    public static final String LLM_REWRITE_DROPPED = "rewrite.llm_dropped_constraint";
    public static final String LLM_REWRITE_CHANGED = "rewrite.llm_meaning_changed";
    public static final String LLM_REWRITE_ADDED = "rewrite.llm_added_content";
    public static final String LLM_REWRITE_FAULT = "rewrite.llm_fault";
    public static final String LLM_RETRIEVE_NO_ANSWER = "retrieve.llm_no_answer";
    public static final String LLM_RETRIEVE_PARTIAL = "retrieve.llm_partial";
    public static final String LLM_RETRIEVE_OFF_TOPIC = "retrieve.llm_off_topic";
    public static final String LLM_RETRIEVE_FAULT = "retrieve.llm_fault";
    public static final String LLM_RERANK_ANSWER_DROPPED = "rerank.llm_answer_dropped";
    public static final String LLM_RERANK_BAD_ORDER = "rerank.llm_bad_order";
    public static final String LLM_RERANK_FAULT = "rerank.llm_fault";
    public static final String LLM_SUPPORT_STATEMENTS = "generate.llm_statements";
    public static final String LLM_SUPPORT_UNSUPPORTED = "generate.llm_unsupported_share";
    public static final String LLM_SUPPORT_CONTRADICTED = "generate.llm_contradicted_share";
    public static final String LLM_SUPPORT_FAULT = "generate.llm_support_fault";
    public static final String FLOW_PIECES = "retrieve.flow_pieces";
    public static final String FLOW_MISSING_SHARE = "retrieve.flow_missing_share";
    public static final String FLOW_DROPPED_SHARE = "rerank.flow_only_dropped_share";
    public static final String FLOW_OMITTED_SHARE = "generate.flow_omitted_share";
    public static final String FLOW_CONTRADICTED_SHARE = "generate.flow_contradicted_share";

    /** The statement-by-statement support check's features: what economy mode does not compute. */
    public static final List<String> SUPPORT_CHECK = List.of(LLM_SUPPORT_STATEMENTS, LLM_SUPPORT_UNSUPPORTED,
            LLM_SUPPORT_CONTRADICTED, LLM_SUPPORT_FAULT);

    /**
     * Features that say how the pipeline is built rather than whether a stage went wrong: how many passages it
     * retrieves, hands to the reranker, keeps and puts in the prompt. The checks still compute them (a verdict's
     * evidence quotes them) but the classifiers are not trained on them. Each profile has its own fixed
     * values, so a model that reads them learns which pipeline a run came from; on a pipeline built otherwise (8
     * passages where training saw 5, 6 and 10) it sends runs down branches fitted for another pipeline. Leaving them
     * out raised stage F1 on a profile never trained on (docs/model-card.md).
     *
     * <p>The prompt's share of the generator's context window is one of them: it says which model the pipeline calls.
     * Every training stack's prompts take 0.1-0.4 % of their window, so no training run shows what the share is for (a
     * prompt near its window); the held-out stack's smaller window put its prompts 19 standard deviations above that,
     * and a logistic regression that had weighed the share flagged 94 % of that stack's sound embeddings.
     */
    public static final List<String> PIPELINE_SHAPE = List.of(RETRIEVE_PASSAGE_COUNT, RERANK_INPUT_COUNT,
            RERANK_OUTPUT_COUNT, RERANK_DROPPED_COUNT, GENERATE_CONTEXT_COUNT, ASSEMBLE_HANDED_ON, ASSEMBLE_CUT,
            ASSEMBLE_DROPPED, ASSEMBLE_WINDOW_SHARE);

    private static final Map<String, Feature> FEATURES = new LinkedHashMap<>();

    static {
        rule(REWRITE_OUTPUT_COUNT, Stage.REWRITE, "number of rewritten queries");
        rule(REWRITE_LOST_NAMES, Stage.REWRITE, "names of the question found in no rewritten query");
        rule(REWRITE_LOST_NUMBERS, Stage.REWRITE, "numbers of the question found in no rewritten query");
        rule(REWRITE_LOST_DATES, Stage.REWRITE, "dates (years, months, quarters) of the question found in no rewrite");
        rule(REWRITE_LOST_SHARE, Stage.REWRITE, "share of the question's names, numbers and dates lost by the rewrite");
        rule(REWRITE_WORST_OUTPUT_LOST_SHARE, Stage.REWRITE, "largest share of them lost by a single rewritten query");
        rule(EMBED_TEXT_COUNT, Stage.EMBED, "number of texts sent for embedding");
        rule(EMBED_LOST_KEY_TERMS, Stage.EMBED,
                "names, numbers and dates of the text it should embed (rewrite, else question) missing from it");
        rule(EMBED_LOST_SHARE, Stage.EMBED, "share of those key terms missing from the embedded text");
        rule(EMBED_NEAR_MISS_WORDS, Stage.EMBED, "embedded words one or two edits off a source word (corrupted)");
        rule(EMBED_ADDED_WORDS, Stage.EMBED, "embedded content words found in neither the question nor the rewrites");
        rule(EMBED_ADDED_SHARE, Stage.EMBED, "share of the embedded content words that were added");
        rule(EMBED_TRUNCATED, Stage.EMBED, "1 when an embedded text is a cut-off prefix of its source, else 0");
        rule(EMBED_LENGTH_RATIO, Stage.EMBED, "shortest embedded text's length over its source's, in words");
        rule(RETRIEVE_PASSAGE_COUNT, Stage.RETRIEVE, "number of retrieved passages");
        rule(RETRIEVE_RECONSTRUCTED, Stage.RETRIEVE, "1 when the passages were rebuilt from a later stage, else 0");
        rule(RETRIEVE_KEY_TERMS_MISSING, Stage.RETRIEVE, "names, numbers and dates of the question in no passage");
        rule(RETRIEVE_BEST_TERM_COVERAGE, Stage.RETRIEVE,
                "largest share of the question's content words found in a single passage");
        rule(RERANK_INPUT_COUNT, Stage.RERANK, "passages given to the reranker");
        rule(RERANK_OUTPUT_COUNT, Stage.RERANK, "passages the reranker kept");
        rule(RERANK_DROPPED_COUNT, Stage.RERANK, "passages the reranker dropped");
        rule(RERANK_UNKNOWN_IDS, Stage.RERANK, "kept passages whose id is not among the reranker's input");
        rule(RERANK_ORDER_VS_INPUT, Stage.RERANK, "Kendall tau of the kept order against the input order");
        rule(RERANK_INPUT_TOP_DROPPED, Stage.RERANK, "1 when the input's first passage was dropped, else 0");
        rule(RERANK_KEY_TERMS_LOST, Stage.RERANK,
                "names, numbers and dates of the question in the reranker's input but in none of the kept passages");
        rule(GENERATE_CONTEXT_COUNT, Stage.GENERATE, "passages in the generator's prompt");
        rule(GENERATE_REFUSES, Stage.GENERATE, "1 when the answer says it cannot answer from the context, else 0");
        rule(GENERATE_UNSUPPORTED_NUMBERS, Stage.GENERATE, "numbers in the answer found nowhere in the context");
        rule(GENERATE_UNSUPPORTED_NAMES, Stage.GENERATE, "names in the answer found nowhere in the context");
        rule(GENERATE_UNSUPPORTED_SHARE, Stage.GENERATE,
                "share of the answer's names, numbers and dates found in neither the context nor the question");
        rule(REWRITE_LOST_WORDS, Stage.REWRITE, "content words of the question that no rewrite keeps in any form");
        rule(REWRITE_ADDED_WORDS, Stage.REWRITE, "content words of the rewrites found in no form in the question");
        rule(RETRIEVE_ANSWER_MATCH, Stage.RETRIEVE,
                "best match of one retrieved sentence to the question (share of its words, halved if it adds none)");
        rule(RETRIEVE_WEIGHTED_MATCH, Stage.RETRIEVE, "share of the question's words the best handed passage holds,"
                + " each weighted by its rarity among the pipeline's known passages");
        rule(RETRIEVE_UNRETURNED_MATCH_GAIN, Stage.RETRIEVE, "that match for the best known passage the run was not"
                + " handed, minus the best handed passage's (absent until the pipeline has known passages)");
        rule(RETRIEVE_UNRETURNED_ANSWER_GAIN, Stage.RETRIEVE, "best sentence match to the question in the known"
                + " passages the run was not handed, minus the best in the retrieved passages");
        rule(ASSEMBLE_HANDED_ON, Stage.ASSEMBLE, "passages handed on to the prompt (the reranker's, else retrieval's)");
        rule(ASSEMBLE_CUT, Stage.ASSEMBLE, "passages handed on that reached the prompt cut short (their opening, or"
                + " extracts of them)");
        rule(ASSEMBLE_EXTRACTED, Stage.ASSEMBLE, "of those, passages only extracts of which reached the prompt (a"
                + " contextual compressor kept what of them it found relevant)");
        rule(ASSEMBLE_DROPPED, Stage.ASSEMBLE, "passages handed on that did not reach the prompt at all");
        rule(ASSEMBLE_LOST_SHARE, Stage.ASSEMBLE, "share of the handed-on text that did not reach the prompt");
        rule(ASSEMBLE_LOST_ANSWER_MATCH, Stage.ASSEMBLE,
                "best sentence match to the question in the text handed on that did not reach the prompt");
        rule(ASSEMBLE_LOST_ANSWER_GAP, Stage.ASSEMBLE,
                "that match minus the best sentence match in the prompt's passages");
        rule(ASSEMBLE_ANSWER_DEPTH, Stage.ASSEMBLE, "how deep in the prompt's passages the best-matching one sits:"
                + " 0 first or last, 1 in the very middle (absent below three passages)");
        rule(ASSEMBLE_WINDOW_SHARE, Stage.ASSEMBLE,
                "the prompt's tokens over the generator model's context window, where both are known");
        rule(ASSEMBLE_LOST_RANK_WEIGHT, Stage.ASSEMBLE, "the largest share of a handed-on passage that did not reach the"
                + " prompt, over the rank it was handed on at: 1 when the first was dropped, 0 when nothing was lost");
        rule(RERANK_CUT_ANSWER_GAP, Stage.RERANK, "best sentence match among the passages the reranker itself cut"
                + " minus the best among those it handed on (context assembly's losses not counted)");
        rule(RERANK_DROPPED_ANSWER_GAP, Stage.RERANK,
                "best sentence match among passages that never reached the generator minus the best in its context");
        rule(GENERATE_CONTEXT_ANSWER_MATCH, Stage.GENERATE, "best sentence match to the question in the context");
        rule(GENERATE_ANSWER_FOUND, Stage.GENERATE,
                "largest share of the answer's own words (not in the question) found in one context sentence");
        rule(GENERATE_ANSWER_SOURCE_MATCH, Stage.GENERATE,
                "how well the context sentence the answer was taken from matches the question");
        rule(GENERATE_ANSWER_MISSING_WORDS, Stage.GENERATE,
                "the answer's own words missing from the context sentence it was taken from");
        rule(GENERATE_WRONG_KIND, Stage.GENERATE, "1 when the question asks when, how many or how long and the answer"
                + " holds no number and no word of time, 0 when it does; absent for a refusal or another question");

        vector(REWRITE_SIM_QUESTION, Stage.REWRITE, "lowest cosine similarity of a rewritten query to the question");
        vector(EMBED_SIM_SOURCE, Stage.EMBED, "lowest similarity of an embedded text to the text it should embed");
        vector(EMBED_SIM_QUESTION, Stage.EMBED, "lowest similarity of an embedded text to the question");
        vector(RETRIEVE_TOP_SIM, Stage.RETRIEVE, "similarity of the passage most similar to the question");
        vector(RETRIEVE_MEAN_SIM, Stage.RETRIEVE, "mean similarity of the retrieved passages to the question");
        vector(RETRIEVE_MOST_SIMILAR_RANK, Stage.RETRIEVE, "retrieval rank (1-based) of that most similar passage");
        vector(RERANK_SIM_CORRELATION, Stage.RERANK,
                "Spearman correlation of the reranked order with the question-similarity order of the kept passages");
        vector(RERANK_CUT_MOST_SIMILAR, Stage.RERANK,
                "1 when the input passage most similar to the question was not kept, else 0");
        vector(RERANK_TOP_SIM_GAP, Stage.RERANK, "best input similarity minus best kept similarity");
        vector(GENERATE_CONTEXT_TOP_SIM, Stage.GENERATE, "similarity of the context passage most similar to the question");
        vector(GENERATE_ANSWER_CONTEXT_SIM, Stage.GENERATE, "highest similarity of the answer to a context passage");
        vector(GENERATE_ANSWER_QUESTION_SIM, Stage.GENERATE, "similarity of the answer to the question");
        vector(ASSEMBLE_LOST_SIM_GAP, Stage.ASSEMBLE, "similarity to the question of the handed-on passage most"
                + " similar to it among those cut or dropped, minus the best of the prompt's passages");
        vector(REWRITE_SUBSTITUTED, Stage.REWRITE,
                "words the rewrite put in place of lost question words that mean something else (not a variant)");
        vector(REWRITE_SUBSTITUTED_IN_PLACE, Stage.REWRITE, "question words the rewrite replaced where they stood,"
                + " by an opposite or by a word that means something else");
        vector(REWRITE_OPPOSITE_IN_PLACE, Stage.REWRITE, "of those, the ones replaced by their opposite");
        rule(GENERATE_SWAPPED_IN_PLACE, Stage.GENERATE, "names and numbers the answer wrote over in the context"
                + " sentence it otherwise copies (a different name or number where the sentence has one)");
        rule(GENERATE_TURNED_AGAINST_QUESTION, Stage.GENERATE, "1 when the answer restates at least half of the"
                + " question's content words turned against it: without its 'not', or with the opposite of one of its"
                + " words (Contrasts)");
        rule(GENERATE_ANSWERING_STATEMENT_MATCH, Stage.GENERATE, "the answer read statement by statement (its lines,"
                + " list marks off, and sentences): of the statements whose own words come mostly from one context"
                + " sentence, the best question match of that sentence; the whole answer's when it is one statement");
        rule(GENERATE_ANSWERING_STATEMENT_GAP, Stage.GENERATE, "how much better the context's best sentence matches"
                + " the question than the sentence the answer's best-sourced statement came from");

        llm(LLM_REWRITE_DROPPED, Stage.REWRITE, "confidence 0-100 that the rewrite dropped a constraint of the question");
        llm(LLM_REWRITE_CHANGED, Stage.REWRITE, "confidence 0-100 that the rewrite asks a different question");
        llm(LLM_REWRITE_ADDED, Stage.REWRITE, "confidence 0-100 that the rewrite added terms or assumptions");
        llm(LLM_REWRITE_FAULT, Stage.REWRITE, "confidence 0-100 that the rewrite is faulty overall");
        llm(LLM_RETRIEVE_NO_ANSWER, Stage.RETRIEVE, "confidence 0-100 that no retrieved passage answers the question");
        llm(LLM_RETRIEVE_PARTIAL, Stage.RETRIEVE, "confidence 0-100 that the passages cover only part of it");
        llm(LLM_RETRIEVE_OFF_TOPIC, Stage.RETRIEVE, "confidence 0-100 that the passages are off topic");
        llm(LLM_RETRIEVE_FAULT, Stage.RETRIEVE, "confidence 0-100 that retrieval is faulty overall");
        llm(LLM_RERANK_ANSWER_DROPPED, Stage.RERANK, "confidence 0-100 that the reranker dropped a needed passage");
        llm(LLM_RERANK_BAD_ORDER, Stage.RERANK, "confidence 0-100 that less relevant passages were ranked first");
        llm(LLM_RERANK_FAULT, Stage.RERANK, "confidence 0-100 that the reranker is faulty overall");
        llm(LLM_SUPPORT_STATEMENTS, Stage.GENERATE, "statements the answer makes (statement-by-statement check)");
        llm(LLM_SUPPORT_UNSUPPORTED, Stage.GENERATE, "share of those statements the context does not support");
        llm(LLM_SUPPORT_CONTRADICTED, Stage.GENERATE, "share of those statements the context contradicts");
        llm(LLM_SUPPORT_FAULT, Stage.GENERATE, "confidence 0-100 that the answer is not backed by its context");
        llm(FLOW_PIECES, Stage.RETRIEVE, "pieces of information needed to answer, listed from the question alone");
        llm(FLOW_MISSING_SHARE, Stage.RETRIEVE, "share of needed pieces found in no retrieved passage");
        llm(FLOW_DROPPED_SHARE, Stage.RERANK, "share of needed pieces found only in passages the generator never got");
        llm(FLOW_OMITTED_SHARE, Stage.GENERATE, "share of needed pieces in the context that the answer omits");
        llm(ASSEMBLE_FLOW_LOST, Stage.ASSEMBLE, "share of needed pieces found only in passages handed on that were"
                + " cut or dropped before the prompt (the evidence flow's judge, read against the assembly)");
        llm(FLOW_CONTRADICTED_SHARE, Stage.GENERATE, "share of needed pieces the answer contradicts");
    }

    private FeatureList() {}

    private static void rule(String name, Stage stage, String description) {
        FEATURES.put(name, new Feature(name, stage, Kind.RULE, description));
    }

    private static void vector(String name, Stage stage, String description) {
        FEATURES.put(name, new Feature(name, stage, Kind.VECTOR, description));
    }

    private static void llm(String name, Stage stage, String description) {
        FEATURES.put(name, new Feature(name, stage, Kind.LLM, description));
    }

    /** Every feature, in the list's fixed order (the order of a feature vector). */
    public static List<Feature> all() {
        return List.copyOf(FEATURES.values());
    }

    public static List<String> names() {
        return List.copyOf(FEATURES.keySet());
    }

    public static boolean contains(String name) {
        return FEATURES.containsKey(name);
    }

    public static Feature get(String name) {
        Feature f = FEATURES.get(name);
        if (f == null) {
            throw new IllegalArgumentException("not in feature list " + VERSION + ": " + name);
        }
        return f;
    }

    /** The features describing the stage itself; its classifier still reads {@link #all()}. */
    public static List<Feature> forStage(Stage stage) {
        return FEATURES.values().stream().filter(f -> f.stage() == stage).toList();
    }
}
