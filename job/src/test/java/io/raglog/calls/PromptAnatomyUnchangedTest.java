package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.job.SimulatedRuns;
import io.raglog.schemas.CallEvent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Holds what the prompt reader makes of a prompt to what it made before its speed work: every chat prompt of the
 * simulator's runs of every profile, and many mutated variants of those and of the framework templates the reader
 * knows (separators, labels, tags, numbering, CRLF and other line ends, Unicode, truncations, very long prompts), go
 * through {@link PromptAnatomy#parse} and {@link ContextBlocks} and through {@link ReferencePromptAnatomy}, a copy of
 * the code as it was, and must come out the same, exceptions included.
 */
class PromptAnatomyUnchangedTest {

    /** Templates the reader has a strategy for, beyond the three the simulator renders; {C} is the passages. */
    private static final List<String> TEMPLATES = List.of(
            "<documents>\n<document index=\"1\">\n<source>a.pdf</source>\n<document_content>{P1}</document_content>\n"
                    + "</document>\n<document index=\"2\"><document_content>{P2}</document_content></document>\n"
                    + "</documents>\n\n<question>{Q}</question>",
            "<context>\n{C}\n</context>\nQuestion: {Q}\nAnswer:",
            "<passage>{P1}</passage>\n<passage>{P2}</passage>\n\nAnswer the question: {Q}",
            "## Documents\n{C}\n\n## Question\n{Q}",
            "**Retrieved context:**\n{C}\n\n**User question:** {Q}\n**Answer:**",
            "Context information is below.\n---------------------\nfile_path: /data/report.pdf\n\n{P1}\n\n"
                    + "file_path: /data/other.pdf\n\n{P2}\n---------------------\nGiven the context information and not"
                    + " prior knowledge, answer the query.\nQuery: {Q}\nAnswer: ",
            "Use the following pieces of context to answer the users question. \nIf you don't know the answer, just"
                    + " say that you don't know, don't try to make up an answer.\n----------------\n{C}",
            "Answer the question based only on the following context:\n{C}\n\nQuestion: {Q}",
            "You are an assistant for question-answering tasks. Use the following pieces of retrieved context to"
                    + " answer the question. Keep the answer concise.\n\n{C}",
            "[1] {P1}\n[2] {P2}\n[3] {P3}\n\n{Q}",
            "Document 1: {P1}\n\nDocument 2: {P2}\n\nBased on the documents above, {Q}",
            "Content: {P1}\nSource: https://example.com/a\n\nContent: {P2}\nSource: 28-pl\n\nQUESTION: {Q}\n"
                    + "=========\nFINAL ANSWER:",
            "Context: {P1}\n\n###\n\n{P2}\n\n###\n\n{P3}\n\nQuestion: {Q}\nAnswer:",
            "Here are the relevant documents:\n\n(1) {P1}\n(2) {P2}\n\nUsing the documents above, answer: {Q}",
            "Given a chat history and the latest user question which might reference context in the chat history,"
                    + " formulate a standalone question.\n\nChat History:\nHuman: hi\nAI: hello\nFollow Up Input: {Q}\n"
                    + "Standalone question:",
            "You are an AI language model assistant. Generate five different versions of the given user question."
                    + " Provide these alternative questions separated by newlines. Original question: {Q}",
            "Please write a passage to answer the question\nQuestion: {Q}\nPassage:",
            "The original query is as follows: {Q}\nWe have provided an existing answer: {P1}\nWe have the "
                    + "opportunity to refine the existing answer with some more context below.\n------------\n{P2}\n"
                    + "------------\nGiven the new context, refine the original answer.\nRefined Answer: ",
            "```\n{Q}\n```",
            "\"{Q}\"");

    private static final List<String> INSERTS = List.of("\n---\n", "\n===\n", "\n***\n", "\n###\n", "\n~~~\n",
            "\n___\n", " --- ", "\n----------------------------\n", "\n\n", "\n", "\n \t\n", "Context:", "context: ",
            "**Context:** ", "## Documents\n", "# Sources", "Question:", "Query: ", "\nQ: ", "Answer:", "\nAnswer:\n",
            "Helpful Answer:", "Response:", "<context>", "</context>", "<documents>", "</documents >", "<document>",
            "</document>", "<doc id=\"1\">", "</doc>", "<document_content>", "</document_content>", "<source>",
            "</source>", "<question>", "</question>", "<CONTEXT>", "</Context>", "<", "</", ">", "[1] ",
            "\n[2] ", "\nDocument 3:", "\n(4) ", "\n### Passage 5\n", "\n**Source 6**:", "\nSource: http://x.io\n",
            "\nContent: ", "\nfile_path: /a/b.pdf\n", "\nTitle: Annual report\n", "Use the following pieces of context",
            "based only on the following context:", "Here are the relevant documents:", "using the documents above",
            " documents provided above ", "Original question: ", ". Question: ", "Follow Up Input:",
            "queries related to: ", "```", "\"\"\"", "\u2028", "\u2029", "\u0085", "\r", "é", "Ünïcödé ", "😀",
            "\t", "   ", ":", "**", "__", "Answer the question in one sentence.", "Write a better search query.");

    private static final List<String> PASSAGES = List.of(
            "Net cash provided by operating activities was $4.2 billion in fiscal 2023, up from $3.1 billion in 2022,"
                    + " driven by higher earnings and lower working capital needs.",
            "Capital expenditures totaled $1.1 billion in 2023, mainly for the expansion of the Rotterdam "
                    + "distribution center.",
            "The board declared a quarterly dividend of $0.42 per share in December 2023. Question: was it paid?",
            "Zürich's café opened in 1998 — its owner, Ölçer, said: “we’ll see”.");

    @Test
    void shouldReadEverySimulatedPromptAsBefore() {
        List<List<ChatMessage>> prompts = simulatedPrompts();
        assertThat(prompts).as("distinct simulated chat prompts").hasSizeGreaterThan(300);
        prompts.forEach(PromptAnatomyUnchangedTest::assertSameAsBefore);
    }

    @Test
    void shouldReadMutatedPromptsAsBefore() {
        Random rng = new Random(20261203);
        List<String> seeds = new ArrayList<>();
        for (List<ChatMessage> prompt : simulatedPrompts().subList(0, 200)) {
            prompt.forEach(m -> seeds.add(Objects.requireNonNullElse(m.content(), "")));
        }
        for (String template : TEMPLATES) {
            seeds.add(fill(template, rng));
        }
        int checked = 0;
        for (int round = 0; round < 12; round++) {
            for (String seed : seeds) {
                String text = mutate(seed, rng);
                assertSameBlocks(text);
                for (List<ChatMessage> messages : arrangements(text, fill(TEMPLATES.get(rng.nextInt(TEMPLATES.size())),
                        rng), rng)) {
                    assertSameAsBefore(messages);
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(15_000);
    }

    @Test
    void shouldReadOddInputsAsBefore() {
        List<String> odd = new ArrayList<>(List.of("", " ", "\n", "\r\n", "\n\n\n", "---", "---\n---", "Context:",
                "Context:\n", "Context:\n\nQuestion:", "Question:", "Answer:", "<context></context>",
                "<context> </context><context>x</context>", "<context><context>a</context></context>",
                "<document></document><document>b</document>", "<context>unclosed", "</context>", "[1]", "[1] a\n[2]",
                "Context: a\r\nQuestion: b\r\nAnswer:", "Context information is below.\r\n---\r\na\r\n---\r\nQuery: q",
                "\u2028Context:\u2028a\u2028Question: q", "\u0085Context: a\u0085\u0085Question: q",
                "Context:\ra\r\rQuestion: q\r", "Question: \"\"\"what?\"\"\"", "```\n```", "\"\"", "“”", "Q: ?",
                // where a match may start: after digits, non-ASCII letters, underscores, tabs, other line ends
                "3use the following context:\na\n\nQuestion: q", "éuse the following context:\na",
                "_here is the context:\na", "Here\tare the documents:\nx\n\ny", "USE  THE FOLLOWING CONTEXT. x\n\na",
                "a\u0085Based on the provided documents:\u0085b", "x\u2028## Context\u2028a\u2029Question: q",
                "a.Documents above\n\nb", "the context given above, and sources above", "Document 1 above",
                // where a labelled question may end: a colon, quotes or a tag on its line, or none
                "Question: what: is it\nAnswer:", "Question: a \"\"\" b\nc", "Question: a </b> c", "Question: a\r\nb:",
                "Question:\n\n  what answer: x", "Question: q sources: s", "Question: q", "Question:   \n",
                // metadata lines: the colon at the 40th, 41st and 42nd character, on the first line or not
                "Context:\n" + "k".repeat(39) + ": v\n\npassage one\n\npassage two",
                "Context:\n" + "k".repeat(40) + ": v\n\npassage one", "Context:\n" + "k".repeat(41) + ": v\n\np",
                "Context:\nfile_path: a\ntitle: b\n\npassage\n\nx:y\n\n", "Context:\nno colon\nkey: v\n\np",
                // blank lines: tabs and spaces in them, several in a row, leading and trailing
                "Context:\na\n \t\nb\n\n\n\nc\n\n", "\n\nContext:\n\n\na\n\n", "Context: a\n\t\n\t\nb \n \n"));
        StringBuilder longPrompt = new StringBuilder("Context information is below.\n---------------------\n");
        for (int i = 0; i < 400; i++) {
            longPrompt.append(PASSAGES.get(i % PASSAGES.size())).append("\n\n");
        }
        odd.add(longPrompt.append("---------------------\nQuery: what?\nAnswer: ").toString());
        odd.add(longPrompt.toString().replace("\n", "\r\n"));
        odd.add("x".repeat(20_000) + "\nContext: " + "y ".repeat(5_000) + "\nQuestion: z");
        for (String text : odd) {
            assertSameBlocks(text);
            for (List<ChatMessage> messages : arrangements(text, "Question: why?", new Random(text.length()))) {
                assertSameAsBefore(messages);
            }
        }
        assertSameAsBefore(null);
        assertSameAsBefore(List.of());
        assertSameAsBefore(List.of(new ChatMessage(null, null)));
        assertSameAsBefore(List.of(new ChatMessage("USER", null), new ChatMessage("Tool", "a\n\nb")));
    }

    /** The user message alone, after a system message, as a system message, and followed by tool results. */
    private static List<List<ChatMessage>> arrangements(String text, String other, Random rng) {
        return List.of(
                List.of(new ChatMessage("user", text)),
                List.of(new ChatMessage("system", text), new ChatMessage("user", other)),
                List.of(new ChatMessage("developer", other), new ChatMessage("Human", text)),
                List.of(new ChatMessage("user", other), new ChatMessage("assistant", ""),
                        new ChatMessage(rng.nextBoolean() ? "tool" : "function", text),
                        new ChatMessage("tool", other)));
    }

    private static String fill(String template, Random rng) {
        StringBuilder context = new StringBuilder();
        int n = 1 + rng.nextInt(4);
        for (int i = 0; i < n; i++) {
            context.append(i == 0 ? "" : "\n\n").append(PASSAGES.get(rng.nextInt(PASSAGES.size())));
        }
        return template.replace("{C}", context).replace("{P1}", PASSAGES.get(0)).replace("{P2}", PASSAGES.get(1))
                .replace("{P3}", PASSAGES.get(2)).replace("{Q}", "What was Acme's operating cash flow in 2023?");
    }

    /** One to four random edits: an insert, a cut, a changed case, other line ends, a truncation, a repetition. */
    private static String mutate(String text, Random rng) {
        String out = text;
        int edits = 1 + rng.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = out.isEmpty() ? 0 : rng.nextInt(out.length() + 1);
            switch (rng.nextInt(9)) {
                case 0, 1, 2 -> out = out.substring(0, at) + INSERTS.get(rng.nextInt(INSERTS.size())) + out.substring(at);
                case 3 -> out = out.substring(0, at) + out.substring(Math.min(out.length(), at + rng.nextInt(40)));
                case 4 -> {
                    int end = Math.min(out.length(), at + rng.nextInt(60));
                    String span = out.substring(at, end);
                    out = out.substring(0, at) + (rng.nextBoolean() ? span.toUpperCase() : span.toLowerCase())
                            + out.substring(end);
                }
                case 5 -> out = out.replace("\n", List.of("\r\n", "\r", "\u2028", "\n\n", " \n").get(rng.nextInt(5)));
                case 6 -> out = out.substring(0, at);
                case 7 -> out = out.substring(0, at) + out.substring(at).replaceFirst("\n", "\n\n---\n\n");
                default -> out = rng.nextInt(8) == 0 ? out.repeat(2 + rng.nextInt(6)) : out.strip();
            }
        }
        return out;
    }

    private static void assertSameAsBefore(List<ChatMessage> messages) {
        Object before = outcome(() -> ReferencePromptAnatomy.parse(messages));
        Object now = outcome(() -> PromptAnatomy.parse(messages));
        assertThat(now).as("parse of %s", messages).isEqualTo(before);
    }

    private static void assertSameBlocks(String text) {
        Object before = outcome(() -> blockOf(ReferenceContextBlocks.find(text)));
        Object now = outcome(() -> blockOf(ContextBlocks.find(text)));
        assertThat(now).as("block of %s", text).isEqualTo(before);
        assertThat(outcome(() -> ContextBlocks.split(text))).as("split of %s", text)
                .isEqualTo(outcome(() -> ReferenceContextBlocks.split(text)));
    }

    private static List<Object> blockOf(Object block) {
        if (block == null) {
            return null;
        }
        if (block instanceof ReferenceContextBlocks.Block b) {
            return List.of(b.start(), b.end(), b.text(), b.passages());
        }
        ContextBlocks.Block b = (ContextBlocks.Block) block;
        return List.of(b.start(), b.end(), b.text(), b.passages());
    }

    private static Object outcome(java.util.function.Supplier<Object> read) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            return e.getClass().getName();
        }
    }

    /** The messages of every chat call of two simulated samples of every profile, proxy-captured and OTLP alike. */
    private static List<List<ChatMessage>> simulatedPrompts() {
        Set<List<ChatMessage>> prompts = new LinkedHashSet<>();
        for (ChatDetail chat : simulatedChats()) {
            prompts.add(chat.messages());
        }
        return new ArrayList<>(prompts);
    }

    /** Every chat call of two simulated samples of every profile, proxy-captured and OTLP alike, as classified. */
    static List<ChatDetail> simulatedChats() {
        List<ChatDetail> chats = new ArrayList<>();
        CallClassifier classifier = BuiltInAdapters.classifier();
        for (CallEvent call : SimulatedRuns.calls()) {
            if (classifier.classify(call) instanceof Classification.Classified c
                    && c.call().detail() instanceof ChatDetail chat) {
                chats.add(chat);
            }
        }
        return chats;
    }
}
