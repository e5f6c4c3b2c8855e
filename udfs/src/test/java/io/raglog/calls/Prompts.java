package io.raglog.calls;

import java.util.ArrayList;
import java.util.List;

/** Builds chat prompts for tests: {@code Prompts.of("system", "...", "user", "...")}. */
final class Prompts {

    /** The passages the prompts below carry, as a retriever returned them for the Acme questions. */
    static final String CASH_FLOW = "Net cash provided by operating activities was $4.2 billion in fiscal 2023, up "
            + "from $3.1 billion in 2022, driven by higher earnings and lower working capital needs.";
    static final String CAPEX = "Capital expenditures totaled $1.1 billion in 2023, mainly for the expansion of the "
            + "Rotterdam distribution center.";
    static final String DIVIDEND = "The board declared a quarterly dividend of $0.42 per share in December 2023.";

    static final String QUESTION = "What was Acme Corp's operating cash flow in 2023?";

    private Prompts() {}

    static List<ChatMessage> of(String... roleThenContent) {
        List<ChatMessage> out = new ArrayList<>();
        for (int i = 0; i < roleThenContent.length; i += 2) {
            out.add(new ChatMessage(roleThenContent[i], roleThenContent[i + 1]));
        }
        return out;
    }

    static List<ChatMessage> user(String content) {
        return of("user", content);
    }

    /** LangChain joins documents with a blank line in its stuff chains. */
    static String stuffedContext() {
        return CASH_FLOW + "\n\n" + CAPEX + "\n\n" + DIVIDEND;
    }
}
