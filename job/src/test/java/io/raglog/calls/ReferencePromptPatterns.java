package io.raglog.calls;

import java.util.regex.Pattern;


// A verbatim copy of the prompt reader as it was before its speed work (main at 1cd143c), kept as the reference that
// PromptAnatomyUnchangedTest compares the live code with. Only the class names differ, and the readings changed on
// purpose since, made here too: "answer the question:" as an inline question label, "New Context:" and "New Answer:"
// as labels (LangChain's and LlamaIndex's refine steps).

/**
 * The labels and phrases RAG frameworks put in prompts (LangChain, LlamaIndex, Haystack, hand-written templates),
 * shared by {@link ReferencePromptAnatomy} and {@link ChatRoleRules}. Labels match at a line start, optionally as a markdown
 * heading or in bold, because that is where templates put them.
 */
final class ReferencePromptPatterns {

    private ReferencePromptPatterns() {}

    private static final String LINE_START = "(?im)^[ \\t]*(?:#{1,6}[ \\t]*)?(?:\\*\\*|__)?";
    private static final String LABEL_END = "(?:\\*\\*|__)?[ \\t]*:(?:\\*\\*|__)?[ \\t]*";

    private static final String CONTEXT_NAMES = "(?:the[ \\t]+)?(?:(?:new[ \\t]+)?context(?:[ \\t]+information)?|contexts"
            + "|(?:retrieved|relevant|provided|supporting)[ \\t]+(?:context|documents|passages|information|sources)"
            + "|documents|passages|sources|search[ \\t]+results|excerpts|knowledge(?:[ \\t]+base)?"
            + "|reference[ \\t]+(?:documents|material|text)|background(?:[ \\t]+information)?|retrieved[ \\t]+document)";

    /** "Context:", "## Documents", "**Retrieved context:**" at a line start; the block follows. */
    static final Pattern CONTEXT_LABEL = Pattern.compile("(?im)^[ \\t]*(?:#{1,6}[ \\t]*" + CONTEXT_NAMES
            + "[ \\t]*:?[ \\t]*$|(?:\\*\\*|__)?" + CONTEXT_NAMES + LABEL_END + ")");

    private static final String QUESTION_NAMES = "(?:(?:the[ \\t]+)?user(?:'s|’s)?[ \\t]+)?(?:question|query|input)"
            + "|follow[ \\t-]?up[ \\t]+(?:input|question)|(?:the[ \\t]+)?original[ \\t]+(?:question|query)"
            + "(?:[ \\t]+is[ \\t]+as[ \\t]+follows)?|q";

    /** "Question:", "Query:", "User question:", "Follow Up Input:" at a line start; the question follows. */
    static final Pattern QUESTION_LABEL = Pattern.compile(LINE_START + "(?:" + QUESTION_NAMES + ")" + LABEL_END);

    /**
     * Question labels that templates put mid-line: "...separated by newlines. Original question: {q}",
     * "...end the queries with '**'. Question: {q} Answer:", "search queries related to: {q}".
     */
    static final Pattern INLINE_QUESTION_LABEL = Pattern.compile("(?i)(?:(?<=[.!?:\"'’*)])[ \\t]+(?:question|query)"
            + "|\\b(?:the[ \\t]+)?original[ \\t]+(?:question|query)(?:[ \\t]+is[ \\t]+as[ \\t]+follows)?"
            + "|\\bfollow[ \\t-]?up[ \\t]+input|\\b(?:queries|questions)[ \\t]+related[ \\t]+to"
            + "|\\banswer[ \\t]+the[ \\t]+(?:question|query))[ \\t]*:[ \\t]*");

    /** "Answer:", "Helpful Answer:", "Refined Answer:": where a template's prompt ends. */
    static final Pattern ANSWER_LABEL = Pattern.compile(LINE_START
            + "(?:helpful[ \\t]+answer|answer|final[ \\t]+answer|your[ \\t]+answer|(?:refined|new)[ \\t]+answer"
            + "|response)"
            + LABEL_END);

    /** Where a labelled question's text stops: the next label of a template, inline or on its own line. */
    static final Pattern QUESTION_END = Pattern.compile("(?i)\\n[ \\t]*\\n|\"\"\"|</"
            + "|\\n[ \\t]*(?:-{3,}|={3,}|\\*{3,}|_{3,}|~{3,}|#{3,})[ \\t]*(?:\\n|$)|(?:^|\\s)(?:helpful answer"
            + "|answer|context|contexts|standalone question|passage|queries|output(?:[ \\t]*\\([^)\\n]{0,30}\\))?"
            + "|rewritten (?:query|question|queries)|search quer(?:y|ies)|sub-?questions|response|refined answer"
            + "|alternative (?:questions|queries)|step-?back question|example queries|chat history|sql ?query"
            + "|documents|sources|keywords)[ \\t]*:");

    /** A line that only separates: "---------------------" (LlamaIndex), "----------------" (LangChain), "===". */
    static final Pattern SEPARATOR_LINE =
            Pattern.compile("(?m)^[ \\t]*(?:-{3,}|={3,}|\\*{3,}|_{3,}|~{3,}|#{3,})[ \\t]*$");

    private static final String MATERIAL = "(?:pieces?[ \\t]+of[ \\t]+)?(?:retrieved[ \\t]+|relevant[ \\t]+)?"
            + "(?:context(?:[ \\t]+information)?|documents?|passages?|sources?|information|excerpts?"
            + "|search[ \\t]+results|snippets?|articles?|texts?|chunks?|facts|knowledge)";

    /**
     * An instruction that announces a context block: "Use the following pieces of context to answer...",
     * "Answer the question based only on the following context:", "Here are the relevant documents".
     */
    static final Pattern CONTEXT_INSTRUCTION = Pattern.compile("(?i)\\b(?:(?:use|using|given|from|with|consult"
            + "|refer[ \\t]+to|according[ \\t]+to|relying[ \\t]+on|based[ \\t]+(?:only[ \\t]+|solely[ \\t]+)?(?:on|upon))"
            + "[ \\t]+(?:only[ \\t]+)?(?:the[ \\t]+|these[ \\t]+|some[ \\t]+)?(?:following|provided|below|given"
            + "|retrieved|supplied|attached|relevant)[ \\t]+" + MATERIAL
            + "|(?:context|documents?|passages?|information|excerpts?|search[ \\t]+results|sources?)[ \\t]+(?:is|are)"
            + "[ \\t]+(?:provided[ \\t]+|given[ \\t]+|included[ \\t]+|shown[ \\t]+|listed[ \\t]+)?below"
            + "|(?:here|below)[ \\t]+(?:is|are)[ \\t]+(?:the[ \\t]+|some[ \\t]+)?" + MATERIAL + ")");

    /** "...using the documents above": the block came first. */
    static final Pattern CONTEXT_ABOVE = Pattern.compile("(?i)\\b(?:context|documents?|passages?|information"
            + "|excerpts?|search[ \\t]+results|sources?)[ \\t]+(?:provided[ \\t]+|given[ \\t]+)?above\\b");

    /** XML-ish wrappers of a context block; Anthropic's documentation recommends {@code <documents>}. */
    static final Pattern XML_CONTEXT = Pattern.compile("(?is)<(context|contexts|documents|docs|passages|sources"
            + "|search_results|retrieved_documents|retrieved_context|knowledge|information|references)(?:\\s[^>]*)?>"
            + "(.*?)</\\1\\s*>");

    /** One passage element inside a block, or in a prompt with no wrapper. */
    static final Pattern XML_PASSAGE = Pattern.compile("(?is)<(document|doc|passage|source|chunk|result"
            + "|search_result|context_item)(?:\\s[^>]*)?>(.*?)</\\1\\s*>");

    /** The text part of a structured passage element (Anthropic's {@code <document_content>}). */
    static final Pattern XML_PASSAGE_TEXT = Pattern.compile("(?is)<(document_content|content|text|page_content"
            + "|passage_text)(?:\\s[^>]*)?>(.*?)</\\1\\s*>");

    static final Pattern XML_QUESTION = Pattern.compile("(?is)<(question|query|user_question|user_query|input)"
            + "(?:\\s[^>]*)?>(.*?)</\\1\\s*>");

    // Splitters and cleaners the prompt is read with, compiled once: String.split and replaceAll with these
    // expressions compile them again on every call, and every generator call's prompt is read.

    /** A blank line: what separates paragraphs. */
    static final Pattern BLANK_LINE = Pattern.compile("\\n[ \\t]*\\n");
    static final Pattern NEWLINE = Pattern.compile("\\n");
    static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /** Numbered passages: "[1] ...", "Document 1:", "Source 2.", "[Document 3]", "### Passage 4", "(5) ". */
    static final Pattern PASSAGE_MARKER = Pattern.compile("(?im)^[ \\t]*(?:\\[(?:(?:document|doc|source|passage"
            + "|context|chunk|excerpt|result)[ \\t]*)?\\d{1,3}\\][ \\t]*:?|(?:#{1,6}[ \\t]*)?(?:\\*\\*)?(?:document|doc"
            + "|source|passage|context|chunk|excerpt|result)[ \\t]*#?[ \\t]*\\d{1,3}(?:\\*\\*)?[ \\t]*(?:[:.)\\]-]|$)"
            + "(?:\\*\\*)?|\\(\\d{1,3}\\)[ \\t])[ \\t]*");

    /** LangChain's with-sources document prompt: "Content: {page_content}\nSource: {source}". */
    static final Pattern CONTENT_MARKER = Pattern.compile("(?im)^[ \\t]*(?:content|page_content)[ \\t]*:[ \\t]*");

    /**
     * A short paragraph that instructs rather than informs ("Write a better search query for the question.",
     * "Answer in one sentence."): when it trails a labelled block it belongs to the template, not to the passages.
     */
    static final Pattern INSTRUCTION_PARAGRAPH = Pattern.compile("(?is)^(?:answer|use|using|write|generate|provide"
            + "|respond|reply|rewrite|rephrase|return|output|list|cite|do not|don't|never|always|only|remember"
            + "|keep|make sure|be concise|now|your task|you must|please (?:answer|write|generate|provide|use"
            + "|respond|rewrite|cite|return))\\b.{0,300}$");

    /** A metadata line LlamaIndex puts above each node's text: "file_path: /data/report.pdf". */
    static final Pattern METADATA_LINE = Pattern.compile("^[A-Za-z_][\\w .\\-]{0,39}:[ \\t]*\\S.{0,200}$");
}
