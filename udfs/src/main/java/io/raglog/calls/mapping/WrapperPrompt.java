package io.raglog.calls.mapping;

import io.raglog.calls.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The prompt a question-answering wrapper ({@code POST /answer {question} -> {answer, sources}}) builds inside,
 * written out in the plainest template the prompt rules know: "Context:" with numbered passages, then "Question:".
 * The wrapper never shows its real prompt, so this is what the rest of raglog reads: the question, the passages the
 * generator was given, and an instruction that makes it a generator call.
 */
final class WrapperPrompt {

    static final String INSTRUCTION = "Answer the question using only the context below.";

    private WrapperPrompt() {}

    static List<ChatMessage> messages(String question, List<String> passages) {
        List<ChatMessage> out = new ArrayList<>();
        out.add(new ChatMessage("system", INSTRUCTION));
        StringBuilder user = new StringBuilder("Context:\n");
        for (int i = 0; i < passages.size(); i++) {
            if (passages.size() > 1) {
                user.append('[').append(i + 1).append("] "); // one passage needs no number, and would keep it
            }
            user.append(passages.get(i).strip()).append("\n\n");
        }
        user.append("Question: ").append(question.strip());
        out.add(new ChatMessage("user", user.toString()));
        return out;
    }
}
