package io.raglog.llm;

/** Valid replies for each check, as a well-behaved model would give them. */
public final class CannedAnswers {

    private CannedAnswers() {}

    /** Recognises the check from its versioned prompt's first line. */
    public static LlmCheck checkOf(String systemPrompt) {
        if (systemPrompt.contains("the query rewriter")) {
            return LlmCheck.REWRITE;
        }
        if (systemPrompt.contains("vector retrieval")) {
            return LlmCheck.RETRIEVAL;
        }
        if (systemPrompt.contains("the reranker")) {
            return LlmCheck.RERANK;
        }
        if (systemPrompt.contains("statements")) {
            return LlmCheck.SUPPORT;
        }
        if (systemPrompt.contains("You trace information")) {
            return LlmCheck.EVIDENCE_FLOW;
        }
        throw new IllegalArgumentException("unknown prompt: " + systemPrompt.substring(0, 80));
    }

    public static String forRequest(LlmTestServer.Received r) {
        return forCheck(r.check());
    }

    public static String forCheck(LlmCheck check) {
        return switch (check) {
            case REWRITE -> "{\"dropped_constraint\": 10, \"meaning_changed\": 5, \"added_content\": 0, \"fault\": 8,"
                    + " \"findings\": []}";
            case RETRIEVAL -> "{\"no_answer\": 15, \"partial\": 20, \"off_topic\": 5, \"fault\": 18,"
                    + " \"findings\": [\"doc-7#2 answers the question\"]}";
            case RERANK -> "{\"answer_dropped\": 5, \"bad_order\": 10, \"fault\": 7, \"findings\": []}";
            case SUPPORT -> "```json\n{\"statements\": [{\"statement\": \"Operating cash flow in 2023 was $4.1 billion\","
                    + " \"verdict\": \"supported\"}, {\"statement\": \"It doubled\", \"verdict\": \"unsupported\"}],"
                    + " \"fault\": 40, \"findings\": [\"'It doubled' is not in the context\"]}\n```";
            case EVIDENCE_FLOW -> "{\"pieces\": [{\"piece\": \"Acme's operating cash flow in 2023\", \"location\":"
                    + " \"in_context\", \"passage_ids\": [\"doc-7#2\"], \"answer\": \"included\"}], \"findings\": []}";
        };
    }
}
