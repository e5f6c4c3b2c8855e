package io.raglog.simulator.profile;

import io.raglog.simulator.corpus.Chunk;
import java.util.List;

/** The prompt templates of the frameworks the profiles stand for; passages go in verbatim. */
public final class Prompts {

    public static final String REWRITE_SYSTEM =
            "You are a helpful assistant that rewrites user questions into concise search queries.";

    public static final String LLAMA_INDEX_SYSTEM = "You are an expert Q&A system that is trusted around the world.\n"
            + "Always answer the query using the provided context information, and not prior knowledge.\n"
            + "Some rules to follow:\n"
            + "1. Never directly reference the given context in your answer.\n"
            + "2. Avoid statements like 'Based on the context, ...' or 'The context information ...' or anything"
            + " along those lines.";

    public static final String CONTEXT_ONLY_SYSTEM = "Answer the question using only the context. If the context does"
            + " not contain the answer, say \"I don't know based on the provided context.\"";

    private Prompts() {}

    public static String rewriteUser(String question) {
        return io.raglog.simulator.pipeline.RagEngine.REWRITE_PROMPT + question;
    }

    public static String passages(List<Chunk> context) {
        StringBuilder sb = new StringBuilder();
        for (Chunk c : context) {
            if (sb.length() > 0) {
                sb.append("\n\n");
            }
            sb.append(c.text());
        }
        return sb.toString();
    }

    /** LangChain's "stuff" QA prompt. */
    public static String langChainStuff(List<Chunk> context, String question) {
        return "Use the following pieces of context to answer the question at the end. If you don't know the answer,"
                + " just say that you don't know, don't try to make up an answer.\n\n" + passages(context)
                + "\n\nQuestion: " + question + "\nHelpful Answer:";
    }

    /** LlamaIndex's default text QA template. */
    public static String llamaIndex(List<Chunk> context, String question) {
        return "Context information is below.\n---------------------\n" + passages(context)
                + "\n---------------------\nGiven the context information and not prior knowledge, answer the query."
                + "\nQuery: " + question + "\nAnswer: ";
    }

    public static String contextQuestion(List<Chunk> context, String question) {
        return "Context:\n" + passages(context) + "\n\nQuestion: " + question;
    }
}
