package io.raglog.calls;

import io.raglog.memo.PerThreadMemo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells a rewriter call from a generator call (both are chat calls) by what the prompt asks and carries.
 *
 * <p>The rules read the prompt's instructions, that is the system messages and the last user message with the
 * context block and the question taken out, so a question that happens to say "rewrite" does not make its
 * generator a rewriter. In order:
 * <ol>
 *   <li>a chat model asked to rank documents by relevance that replied with a ranking is a RERANK
 *       ({@link LlmRerankers}: LlamaIndex's LLMRerank, RankGPT);
 *   <li>a compressor that extracts what of one document is relevant (LangChain's {@code LLMChainExtractor}) is OTHER:
 *       its extracts reach the generator's prompt, where context assembly reads what of each passage got there;
 *   <li>questions suggested for the user to ask next, after the answer, are OTHER: not queries to search with;
 *   <li>a relevance gate ({@link RelevanceGates}) that answered "insufficient" is a GATE, read in the generator's place
 *       (its pipeline stopped there); one that answered "sufficient" is OTHER (the generator follows);
 *   <li>a grader or judge (relevance, groundedness: CRAG, self-RAG; a self-evaluation of the answer) is OTHER even
 *       though it carries documents, when its reply is a verdict (yes / no, a score, "GROUNDED: no") rather than an
 *       answer;
 *   <li>a reply that is a search and nothing else ({@link JsonQueries#searchOnly}: an agent's call to its search
 *       tool, a rewriter's structured output) is a REWRITE, whatever the prompt carries;
 *   <li>a prompt with a context block is a GENERATE call, unless its instructions ask for queries and not for an
 *       answer (a rewriter shown documents, as in iterative retrieval);
 *   <li>instructions that ask to rewrite, rephrase, expand, decompose or generate search queries make a REWRITE;
 *   <li>a prompt that asks to answer from context or documents is a GENERATE call even when the block came back
 *       empty;
 *   <li>a reply of a few short lines that reuse the question's words is a rewriter's (query-like lines);
 *   <li>a chunk enriched for the index (a context to situate it, a title, the questions it answers) is OTHER;
 *   <li>anything else (routers, guardrails, title generators, small talk) is OTHER.
 * </ol>
 */
public final class ChatRoleRules {

    private static final Pattern GRADER = Pattern.compile("(?i)\\bgrader\\b|\\bgrade\\s+(?:the|whether|if)\\b"
            + "|\\bassess(?:ing|es)?\\s+(?:the\\s+)?(?:relevance|whether|if)\\b|\\bbinary\\s+score\\b"
            + "|\\b(?:judge|evaluate|determine)\\s+whether\\s+(?:the\\s+)?(?:retrieved\\s+)?(?:document|answer"
            + "|generation|passage|response)s?\\s+(?:is|are)\\s+(?:relevant|grounded|supported|useful)"
            // a pipeline's check of its own answer: "You are evaluating the quality of an AI-generated response",
            // "Is every claim directly supported by the context?"
            // (said of a generated answer: "evaluate the answer options" is a multiple-choice generator's instruction)
            + "|\\bevaluat(?:e|ing)\\s+(?:the\\s+)?quality\\s+of\\s+(?:an?\\s+|the\\s+)?"
            + "(?:ai-generated\\s+|generated\\s+)?(?:response|answer)\\b"
            + "|\\bevaluat(?:e|ing)\\s+(?:an?\\s+|the\\s+)?(?:ai-generated|generated|model'?s|llm'?s?)\\s+"
            + "(?:response|answer)\\b|\\bis\\s+every\\s+claim\\b");

    /**
     * "Suggest three follow-up questions the user might ask next": questions for the user to click after the answer,
     * not queries to search with. Read as a rewrite they came after their run had closed, a late call or a run of
     * their own.
     */
    private static final Pattern FOLLOW_UPS = Pattern.compile("(?i)\\bquestions?\\b[^.\\n]{0,40}?\\b(?:the\\s+)?"
            + "(?:user|users|customer|reader|visitor|they)\\s+(?:might|may|could|would|is\\s+likely\\s+to"
            + "|are\\s+likely\\s+to)\\s+(?:want\\s+to\\s+)?(?:ask|want|have)\\b"
            + "|\\bsuggest(?:ed)?\\b[^.\\n]{0,40}?\\bfollow-?up\\s+questions\\b");

    /**
     * "extract any part of the context *AS IS* that is relevant to answer the question" (contextual compression);
     * "Return any relevant text verbatim" (LangChain's map-reduce, its map step over each document: the extracts reach
     * the combining call's prompt, as a compressor's do).
     */
    private static final Pattern COMPRESSOR = Pattern.compile("(?i)\\bextract\\s+(?:any|all|the)?\\s*(?:parts?"
            + "|sentences|passages|portions?|snippets)\\s+of\\s+the\\s+(?:context|document|passage|text)s?\\b"
            + "[^.\\n]{0,40}?\\brelevant\\b|\\breturn\\s+any\\s+relevant\\s+text\\s+verbatim\\b");

    /**
     * A chunk or document enriched when the index is built, one call per chunk: Anthropic's contextual retrieval ("give
     * a short succinct context to situate this chunk within the overall document", LlamaIndex's
     * DocumentContextExtractor), LlamaIndex's title and questions-answered extractors, LangChain's multi-vector
     * summaries and hypothetical questions. Read as generators (a document and an instruction), each made a "run" of
     * its own at indexing time, checked and judged.
     */
    private static final Pattern INDEX_ENRICHMENT = Pattern.compile("(?i)\\bsituate\\s+(?:this|the)\\s+chunk\\b"
            + "|\\bchunk\\s+we\\s+want\\s+to\\s+situate\\b"
            + "|\\bgive\\s+a\\s+title\\s+that\\s+summari[sz]es\\b"
            + "|\\b(?:comprehensive\\s+)?title\\s+for\\s+this\\s+document\\b"
            + "|\\bquestions?\\s+(?:that\\s+)?this\\s+(?:context|document|passage|chunk|text|section)\\s+"
            + "(?:can|could)\\s+(?:provide\\s+(?:specific\\s+)?)?answers?\\b"
            + "|\\bhypothetical\\s+questions?\\s+that\\s+the\\s+(?:below\\s+|following\\s+|above\\s+)?"
            + "(?:document|text|passage|chunk)\\s+could\\s+be\\s+used\\s+to\\s+answer\\b"
            + "|\\bunique\\s+keywords\\s+for\\s+this\\s+document\\b"
            + "|\\bsummari[sz]e\\s+the\\s+following\\s+document\\b");

    private static final Pattern REWRITE = Pattern.compile("(?i)"
            + "\\b(?:re-?write|re-?phrase|re-?formulate|paraphrase|re-?word|condense|expand|decompose"
            + "|break\\s+(?:\\w+\\s+){0,3}?down)\\b[^.\\n]{0,80}?\\b(?:questions?|quer(?:y|ies)|inputs?|search)\\b"
            + "|\\b(?:generate|produce|create|write|provide|output|give|suggest|come\\s+up\\s+with|formulate|propose"
            + "|return|list)\\b[^.\\n]{0,60}?\\b(?:search|retrieval|keyword|lookup|alternative|different|multiple"
            + "|sub-?|follow-?up|standalone|stand-alone|better|optimi[sz]ed|related|similar|paraphrased|reworded"
            + "|step-?back|diverse|\\d+|two|three|four|five|several)\\b[^.\\n]{0,30}?\\b(?:quer(?:y|ies)|questions"
            + "|versions|search\\s+terms|keywords)\\b"
            + "|\\bstandalone\\s+question\\b|\\bstep-?back\\s+question\\b|\\bsub-?questions\\b"
            + "|\\bsearch\\s+(?:engine\\s+)?quer(?:y|ies)\\b|\\bhypothetical\\s+(?:document|passage|answer)\\b"
            // HyDE: a hypothetical document that would answer, embedded in place of the question ("Please write a
            // passage to answer the question", "generate a paragraph of text that answers the question")
            + "|\\b(?:write|generate|compose|draft|produce)\\s+(?:a|an|one)\\s+(?:[\\w-]+\\s+){0,3}?(?:passage|document"
            + "|paragraph|article)\\b[^.\\n]{0,60}?\\banswers?\\b"
            + "|\\bquery\\s+(?:expansion|rewriting|reformulation|transformation)\\b"
            + "|\\b(?:versions|perspectives)\\s+of\\s+the\\s+(?:given\\s+|original\\s+)?(?:user\\s+)?question\\b");

    private static final Pattern ANSWER = Pattern.compile("(?i)\\banswer(?:ing)?\\s+(?:the|this|a|my|their|user'?s?"
            + "|following|given)\\s+(?:\\w+\\s+)?(?:question|query)|\\bhelpful\\s+answer\\s*:|\\banswer\\s*:\\s*$"
            + "|\\bquestion[- ]answering\\b|\\brespond\\s+to\\s+the\\s+(?:user'?s?\\s+)?(?:question|query)"
            + "|\\brefine\\s+the\\s+(?:original|existing)\\s+answer\\b|\\bq&a\\b"
            // "You answer questions using only the context provided": a generator's role, said of itself
            + "|\\b(?:you|i)\\s+answer\\s+(?:the\\s+)?(?:user'?s?\\s+|employees'?\\s+|customers'?\\s+)?questions\\b");

    private static final Pattern DOCUMENTS = Pattern.compile("(?i)\\b(?:context|documents?|passages?|sources?"
            + "|excerpts?|search\\s+results|retrieved|snippets?|knowledge\\s+base)\\b");

    /** Rewriters write two to a handful of queries; more lines than this is a list answer. */
    private static final int MAX_QUERY_LINES = 10;

    /** A search query is a phrase or one sentence. */
    private static final int MAX_QUERY_LINE_CHARS = 200;

    private static final Set<String> STOP_WORDS = Set.of("what", "which", "when", "where", "were", "does", "with",
            "that", "this", "from", "have", "about", "there", "their", "they", "into", "your", "how", "the", "and",
            "for", "are", "was", "did", "who", "why");

    private ChatRoleRules() {}

    /** What a prompt's instructions ask for: a pure function of their text, read once per template. */
    private record Asks(boolean ranking, boolean compressing, boolean followUps, boolean indexing, boolean gate,
            boolean grading, boolean queries, boolean answer, boolean documents) {

        static Asks of(String instructions) {
            return new Asks(LlmRerankers.asksForRanking(instructions), COMPRESSOR.matcher(instructions).find(),
                    FOLLOW_UPS.matcher(instructions).find(), INDEX_ENRICHMENT.matcher(instructions).find(),
                    RelevanceGates.asksForVerdict(instructions), GRADER.matcher(instructions).find(),
                    REWRITE.matcher(instructions).find(), ANSWER.matcher(instructions).find(),
                    DOCUMENTS.matcher(instructions).find());
        }
    }

    /**
     * A pipeline's instructions are its prompt template, the same on every call, and these four case-insensitive
     * searches over them were a quarter of decoding and classifying a call (JFR, issue #27). A handful of templates
     * per pipeline and task; instructions that carry chat history differ per call and just pass through.
     */
    private static final PerThreadMemo<Asks> RECENT_INSTRUCTIONS = new PerThreadMemo<>(64);

    public static ChatRole roleOf(List<ChatMessage> messages, String output, PromptAnatomy.Parsed anatomy) {
        Asks asks = RECENT_INSTRUCTIONS.get(instructions(messages, anatomy), Asks::of);
        if (asks.ranking() && LlmRerankers.ranking(output) != null) {
            return ChatRole.RERANK;
        }
        if (asks.compressing() || asks.followUps() || asks.indexing()) {
            return ChatRole.OTHER;
        }
        if (asks.gate()) {
            switch (RelevanceGates.verdict(output)) {
                case INSUFFICIENT -> {
                    return ChatRole.GATE;
                }
                case SUFFICIENT -> {
                    return ChatRole.OTHER;
                }
                case NONE -> { } // not a verdict: read as any other prompt
            }
        }
        if (asks.grading() && verdictLike(output)) {
            return ChatRole.OTHER;
        }
        if (JsonQueries.searchOnly(output)) {
            // an agent's call to its search tool (the arguments are the reply), shown documents or not: the query it
            // wrote is the run's rewrite, and the call is never its answer
            return ChatRole.REWRITE;
        }
        if (anatomy.hasContext()) {
            if (enrichesForTheIndex(messages, anatomy)) {
                return ChatRole.OTHER;
            }
            return asks.queries() && !asks.answer() ? ChatRole.REWRITE : ChatRole.GENERATE;
        }
        if (asks.queries()) {
            return ChatRole.REWRITE;
        }
        if (asks.answer() && asks.documents()) {
            return ChatRole.GENERATE;
        }
        if (queryLikeLines(output, anatomy.question())) {
            return ChatRole.REWRITE;
        }
        return ChatRole.OTHER;
    }

    /**
     * An index-time instruction the prompt reader took for the question or for the end of the context (it follows the
     * chunk: "Context: {chunk}. Give a title that summarizes…"), so the instructions do not show it: searched for in
     * the last message's tail, where these templates put it. Asked only of what would be a generator.
     */
    private static boolean enrichesForTheIndex(List<ChatMessage> messages, PromptAnatomy.Parsed anatomy) {
        String q = anatomy.question();
        if (q != null && q.length() <= ENRICHMENT_TAIL_CHARS && enriches(q, 0)) {
            return true;
        }
        String last = messages.isEmpty() ? null : messages.get(messages.size() - 1).content();
        return last != null && enriches(last, Math.max(0, last.length() - ENRICHMENT_TAIL_CHARS));
    }

    private static boolean enriches(String text, int from) {
        if (!mayEnrich(text, from)) {
            return false;
        }
        Matcher m = ENRICHMENT_MATCHER.get().reset(text);
        boolean found = m.region(from, text.length()).find();
        m.reset(""); // holds no prompt between calls
        return found;
    }

    /**
     * A word every index-time instruction holds, looked for plainly first: the expression's alternatives, tried at
     * every character of a prompt's tail, slowed classifying a call by a third (JMH decodeAndClassifyCall).
     */
    private static final List<String> ENRICHMENT_WORDS = List.of("ituate", "itle", "can provide", "can answer",
            "could answer", "used to answer", "eywords", "ummari");

    private static boolean mayEnrich(String text, int from) {
        for (String word : ENRICHMENT_WORDS) {
            if (text.indexOf(word, from) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The thread's matcher: one made for every generator call was most of what this check allocated. */
    private static final ThreadLocal<Matcher> ENRICHMENT_MATCHER =
            ThreadLocal.withInitial(() -> INDEX_ENRICHMENT.matcher(""));

    /** How much of a prompt's end an index-time instruction takes, at most. */
    private static final int ENRICHMENT_TAIL_CHARS = 600;

    /** Below this a reply is a verdict ("yes", "relevant", "0.8"), not an answer. */
    private static final int MAX_VERDICT_CHARS = 40;

    private static final Pattern VERDICT_JSON =
            Pattern.compile("(?is)^\\{.{0,200}\\b(?:score|grade|relevan\\w*|grounded|verdict)\\b.{0,200}\\}$");

    /** "GROUNDED: yes\nCOMPLETE: no\nREASONING: ...": a verdict in labelled lines, the reason last. */
    private static final Pattern VERDICT_LINE = Pattern.compile("(?i)^[*_\\s]*[a-z][a-z _-]{1,30}[*_]*\\s*:[*_\\s]*"
            + "(?:yes|no|true|false|pass|fail|\\d+(?:\\.\\d+)?(?:\\s*/\\s*\\d+)?)\\b");

    /**
     * A grader answers "yes", "no" or {@code {"binary_score": "yes"}}; a generator whose instructions happen to say
     * "assess whether the context answers" writes sentences. A failed call has no reply: the instructions decide.
     */
    static boolean verdictLike(String output) {
        if (output == null) {
            return true;
        }
        String o = output.strip();
        return o.length() <= MAX_VERDICT_CHARS || VERDICT_JSON.matcher(o).matches()
                || VERDICT_LINE.matcher(o).lookingAt();
    }

    /** Past this many characters a thread does not keep its instructions buffer for the next call. */
    private static final int MAX_KEPT_BUFFER_CHARS = 1 << 16;

    /**
     * Each thread's buffer for {@link #instructions}, taken while in use. The prompt text (context block included)
     * was built, copied out, and copied twice more by the two replacements: up to four copies of a ~4 KB prompt per
     * chat call, 2.9 % of the job's allocation (JFR, issue #27). Now both are taken out in the buffer, and only the
     * instructions, a fraction of the prompt, are copied out.
     */
    private static final ThreadLocal<StringBuilder> INSTRUCTIONS_BUFFER = new ThreadLocal<>();

    /** System messages and the last user message, without the context block and the question. */
    static String instructions(List<ChatMessage> messages, PromptAnatomy.Parsed anatomy) {
        int lastUser = -1;
        int length = 0;
        for (int i = 0; i < messages.size(); i++) {
            if (PromptAnatomy.isUser(messages.get(i).role())) {
                lastUser = i;
            }
            length += messages.get(i).content() == null ? 0 : messages.get(i).content().length() + 2;
        }
        StringBuilder sb = INSTRUCTIONS_BUFFER.get();
        INSTRUCTIONS_BUFFER.set(null);
        if (sb == null) {
            sb = new StringBuilder(length); // sized for every message: grown from the default, its copies cost
        }
        sb.setLength(0);
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            if ((PromptAnatomy.isSystem(m.role()) || i == lastUser) && m.content() != null) {
                sb.append(m.content()).append("\n\n");
            }
        }
        if (anatomy.hasContext()) {
            replaceAll(sb, anatomy.contextText(), "\n");
        }
        if (anatomy.question() != null && !anatomy.question().isBlank()) {
            replaceAll(sb, anatomy.question(), "\n");
        }
        String text = sb.toString();
        if (sb.capacity() <= MAX_KEPT_BUFFER_CHARS) {
            INSTRUCTIONS_BUFFER.set(sb);
        }
        return text;
    }

    /**
     * {@code String.replace(target, replacement)} in place: every occurrence, left to right, none overlapping, each
     * searched for after the last one's replacement (in what was there before, as {@code replace} searches the
     * original). {@code ChatRoleRulesInstructionsTest} holds it to {@code replace}.
     */
    static void replaceAll(StringBuilder sb, String target, String replacement) {
        if (target.isEmpty()) { // replace puts one before every character and at the end: never a context or question
            String replaced = sb.toString().replace(target, replacement);
            sb.setLength(0);
            sb.append(replaced);
            return;
        }
        int at = sb.indexOf(target);
        while (at >= 0) {
            sb.replace(at, at + target.length(), replacement);
            at = sb.indexOf(target, at + replacement.length());
        }
    }

    // compiled once: these ran once per line and per word of every reply that might be a rewriter's
    private static final Pattern LIST_MARKER = Pattern.compile("^(?:\\d+[.)]|[-*•]|Query\\s*\\d*:)\\s*");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final Pattern DIGITS = Pattern.compile("\\d+");

    /**
     * "Outputs short query-like lines for a question it was given": two to ten short lines, most of which reuse a
     * content word of the question. One line is not enough: a short factual answer looks the same.
     */
    static boolean queryLikeLines(String output, String question) {
        if (output == null || question == null || question.isBlank()) {
            return false;
        }
        List<String> lines = new ArrayList<>();
        for (String line : PromptPatterns.NEWLINE.split(output)) {
            String l = LIST_MARKER.matcher(line.strip()).replaceAll("").strip();
            if (!l.isEmpty()) {
                lines.add(l);
            }
        }
        if (lines.size() < 2 || lines.size() > MAX_QUERY_LINES) {
            return false;
        }
        Set<String> questionWords = contentWords(question);
        int reusing = 0;
        for (String l : lines) {
            if (l.length() > MAX_QUERY_LINE_CHARS || (l.endsWith(".") && WHITESPACE.split(l).length > 12)) {
                return false; // sentences of an answer, not queries
            }
            Set<String> words = contentWords(l);
            words.retainAll(questionWords);
            if (!words.isEmpty()) {
                reusing++;
            }
        }
        return reusing * 3 >= lines.size() * 2;
    }

    private static Set<String> contentWords(String text) {
        Set<String> out = new HashSet<>();
        for (String w : NOT_WORD.split(text.toLowerCase(Locale.ROOT))) {
            if ((w.length() >= 4 || DIGITS.matcher(w).matches()) && !STOP_WORDS.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }
}
