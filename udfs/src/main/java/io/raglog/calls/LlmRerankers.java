package io.raglog.calls;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chat model used as the reranker, in the two shapes frameworks ship: LlamaIndex's {@code LLMRerank} (its
 * choice-select prompt: "Document 1:" blocks and a question, a reply of "Doc: 9, Relevance: 7" lines) and RankGPT
 * (RankLLM, LlamaIndex's {@code RankGPTRerank}: passages numbered "[1] …", one to a message or all in one, a reply
 * "[2] > [1] > [3]"). Read as chat, the first carries a question and documents and was taken for the generator (its
 * run closed on it, and the real generator came late), the second for a rewriter; both are the rerank stage.
 *
 * <p>The documents are read from the prompt as numbered, the question from the prompt's last "Question:" (LlamaIndex)
 * or the query the instructions name (RankGPT). A RankGPT reply is an order without scores: its results carry none.
 * LlamaIndex sends documents ten to a call ({@code choice_batch_size}); each call is read as it is, and a run whose
 * rerank took several keeps the last.
 */
final class LlmRerankers {

    /** The instructions ask for documents ranked or chosen by relevance. */
    private static final Pattern ASKS_RANKING = Pattern.compile("(?i)"
            + "\\brank\\s+(?:the\\s+)?(?:\\d+\\s+)?(?:passages|documents|chunks|results|contexts)\\b[^\\n]{0,80}?"
            + "\\brelevan"
            + "|\\bnumbers?\\s+of\\s+the\\s+(?:documents|passages|chunks)\\b[^\\n]{0,120}?\\bin\\s+order\\s+of\\s+"
            + "relevance");

    /** "Doc: 9, Relevance: 7" (LlamaIndex's choice-select reply), one per line. */
    private static final Pattern CHOICE_LINE = Pattern.compile("(?im)^[ \\t]*doc(?:ument)?[ \\t]*:?[ \\t]*(\\d+)"
            + "[ \\t]*,[ \\t]*relevance[ \\t]*:?[ \\t]*(\\d+(?:\\.\\d+)?)");

    /** "[2] > [1] > [3]" (RankGPT's reply), nothing else on the line. */
    private static final Pattern ORDER = Pattern.compile("^\\s*\\[\\d+\\](?:\\s*>\\s*\\[\\d+\\])+\\s*$");
    private static final Pattern BRACKETED = Pattern.compile("\\[(\\d+)\\]");

    /** "Document 3:" opening a block of the choice-select prompt. */
    private static final Pattern DOCUMENT_BLOCK = Pattern.compile("(?m)^Document[ \\t]+(\\d+)[ \\t]*:[ \\t]*\\n");
    /** "[3] text" opening a RankGPT passage. */
    private static final Pattern NUMBERED_PASSAGE = Pattern.compile("(?m)^\\[(\\d+)\\][ \\t]+");
    /** RankGPT's query: "relevance to query: {q}." or "Search Query: {q}." */
    private static final Pattern NAMED_QUERY = Pattern.compile("(?i)(?:relevance\\s+to\\s+(?:the\\s+)?query|search"
            + "\\s+query)\\s*:\\s*([^\\n]+)");

    private LlmRerankers() {}

    static boolean asksForRanking(String instructions) {
        return ASKS_RANKING.matcher(instructions).find();
    }

    /** One document of a ranking: its number as the prompt gave it (from 1), and its score where the reply gave one. */
    record Ranked(int number, Double score) {}

    /** The ranking a reply gives, best first; null when the reply is not one. */
    static List<Ranked> ranking(String reply) {
        if (reply == null || reply.isBlank()) {
            return null;
        }
        List<Ranked> out = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        Matcher choice = CHOICE_LINE.matcher(reply);
        while (choice.find()) {
            int n = Integer.parseInt(choice.group(1));
            if (seen.add(n)) {
                out.add(new Ranked(n, Double.parseDouble(choice.group(2))));
            }
        }
        if (!out.isEmpty()) {
            return out;
        }
        if (!ORDER.matcher(reply).matches()) {
            return null;
        }
        Matcher id = BRACKETED.matcher(reply);
        while (id.find()) {
            int n = Integer.parseInt(id.group(1));
            if (seen.add(n)) {
                out.add(new Ranked(n, null));
            }
        }
        return out;
    }

    /** The chat call read as a rerank; null when its documents cannot be found in the prompt. */
    static RerankDetail read(ChatDetail chat) {
        List<Ranked> ranked = ranking(chat.output());
        TreeMap<Integer, String> documents = choiceDocuments(chat);
        String query = chat.question();
        if (documents.isEmpty()) {
            documents = numberedPassages(chat);
            query = namedQuery(chat);
        }
        if (documents.isEmpty() || ranked == null) {
            return null;
        }
        List<String> texts = new ArrayList<>(documents.values());
        List<Integer> numbers = new ArrayList<>(documents.keySet());
        List<RerankDetail.RerankResult> results = new ArrayList<>();
        for (Ranked r : ranked) {
            int index = numbers.indexOf(r.number());
            if (index >= 0) {
                results.add(new RerankDetail.RerankResult(index, r.score()));
            }
        }
        return new RerankDetail(chat.adapter() + ".llm_rerank", chat.model(), query, texts, results, null);
    }

    /**
     * LlamaIndex's blocks, from the last "Document 1:" on (its template shows an example list first), each up to the
     * next block, or to the question.
     */
    private static TreeMap<Integer, String> choiceDocuments(ChatDetail chat) {
        TreeMap<Integer, String> out = new TreeMap<>();
        String prompt = lastUser(chat);
        List<Numbered> blocks = numbered(prompt, DOCUMENT_BLOCK, from -> questionStart(prompt, from));
        int first = 0;
        for (int i = 0; i < blocks.size(); i++) {
            first = blocks.get(i).number() == 1 ? i : first;
        }
        for (Numbered block : blocks.subList(first, blocks.size())) {
            // LlamaIndex writes each node with its metadata lines first ("file_name: ..."), as in its answer prompt
            String text = String.join("\n\n", ContextBlocks.split(block.text()));
            if (!text.isEmpty()) {
                out.put(block.number(), text);
            }
        }
        return out;
    }

    private static int questionStart(String prompt, int from) {
        int at = prompt.indexOf("\nQuestion:", from);
        return at < 0 ? prompt.length() : at;
    }

    /** RankGPT's passages: "[n] text" in any user message, one to a message or separated by blank lines. */
    private static TreeMap<Integer, String> numberedPassages(ChatDetail chat) {
        TreeMap<Integer, String> out = new TreeMap<>();
        for (ChatMessage message : chat.messages()) {
            if (!PromptAnatomy.isUser(message.role()) || message.content() == null) {
                continue;
            }
            String content = message.content();
            for (Numbered passage : numbered(content, NUMBERED_PASSAGE, from -> paragraphEnd(content, from))) {
                String text = passage.text().strip();
                if (!text.isEmpty()) {
                    out.putIfAbsent(passage.number(), text);
                }
            }
        }
        return out;
    }

    /** A block that a numbered opener starts: its number, and its text up to the next opener. */
    private record Numbered(int number, String text) {}

    /**
     * The blocks {@code opener} (whose group 1 is the number) starts in {@code text}, in order: each runs to the next
     * opener, the last to {@code lastEnd} of where its text starts.
     */
    private static List<Numbered> numbered(String text, Pattern opener, IntUnaryOperator lastEnd) {
        List<int[]> starts = new ArrayList<>(); // number, text start, opener start
        Matcher m = opener.matcher(text);
        while (m.find()) {
            starts.add(new int[] {Integer.parseInt(m.group(1)), m.end(), m.start()});
        }
        List<Numbered> out = new ArrayList<>(starts.size());
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1)[2] : lastEnd.applyAsInt(starts.get(i)[1]);
            out.add(new Numbered(starts.get(i)[0], text.substring(starts.get(i)[1], end)));
        }
        return out;
    }

    /** A lone passage runs to its message's end; the last of several stops at the blank line before instructions. */
    private static int paragraphEnd(String content, int from) {
        int blank = content.indexOf("\n\n", from);
        return blank < 0 ? content.length() : blank;
    }

    private static String namedQuery(ChatDetail chat) {
        String query = null;
        for (ChatMessage message : chat.messages()) {
            if (message.content() == null) {
                continue;
            }
            Matcher m = NAMED_QUERY.matcher(message.content());
            while (m.find()) {
                query = m.group(1).strip();
            }
        }
        if (query == null) {
            return chat.question();
        }
        // RankGPT ends the query with ". " before its next sentence
        return query.replaceFirst("\\.\\s*(?:Rank\\b.*)?$", "").strip();
    }

    private static String lastUser(ChatDetail chat) {
        for (int i = chat.messages().size() - 1; i >= 0; i--) {
            ChatMessage m = chat.messages().get(i);
            if (PromptAnatomy.isUser(m.role()) && m.content() != null) {
                return m.content();
            }
        }
        return "";
    }
}
