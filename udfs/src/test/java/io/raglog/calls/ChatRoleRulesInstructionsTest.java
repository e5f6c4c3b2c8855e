package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ChatRoleRules#instructions} takes the context block and the question out in a reused buffer rather than in
 * copies of the prompt (issue #27); the text is a memo key and the rules' input, so it must be the very string the
 * copies gave: held here to {@link #referenceInstructions}, the code as it was, over edge cases and random prompts
 * ({@code ChatRoleRulesSimulatedTest} in the job module does the simulator's chat calls).
 */
public class ChatRoleRulesInstructionsTest {

    /** {@code ChatRoleRules.instructions} before the buffer: built, copied out, and replaced twice. */
    public static String referenceInstructions(List<ChatMessage> messages, PromptAnatomy.Parsed anatomy) {
        int lastUser = -1;
        int length = 0;
        for (int i = 0; i < messages.size(); i++) {
            if (PromptAnatomy.isUser(messages.get(i).role())) {
                lastUser = i;
            }
            length += messages.get(i).content() == null ? 0 : messages.get(i).content().length() + 2;
        }
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            if ((PromptAnatomy.isSystem(m.role()) || i == lastUser) && m.content() != null) {
                sb.append(m.content()).append("\n\n");
            }
        }
        String text = sb.toString();
        if (anatomy.hasContext()) {
            text = text.replace(anatomy.contextText(), "\n");
        }
        if (anatomy.question() != null && !anatomy.question().isBlank()) {
            text = text.replace(anatomy.question(), "\n");
        }
        return text;
    }

    /** The same string as the reference, for the given anatomy and for what the prompt reader makes of it. */
    public static void assertSameInstructions(List<ChatMessage> messages, PromptAnatomy.Parsed anatomy) {
        assertThat(ChatRoleRules.instructions(messages, anatomy)).as(messages + " / " + anatomy)
                .isEqualTo(referenceInstructions(messages, anatomy));
        PromptAnatomy.Parsed parsed = PromptAnatomy.parse(messages);
        assertThat(ChatRoleRules.instructions(messages, parsed)).as(messages + " / " + parsed)
                .isEqualTo(referenceInstructions(messages, parsed));
    }

    private static PromptAnatomy.Parsed anatomy(String question, String context) {
        return new PromptAnatomy.Parsed(question, context, List.of());
    }

    private static ChatMessage system(String text) {
        return new ChatMessage("system", text);
    }

    private static ChatMessage user(String text) {
        return new ChatMessage("user", text);
    }

    @Test
    void shouldGiveTheOldTextForEdgeCases() {
        String context = "Passage one: revenue grew 12%.\n\nPassage two: costs fell.";
        String question = "How did revenue change?";
        String prompt = "Answer from the context.\n<context>\n" + context + "\n</context>\nQuestion: " + question;
        List<List<ChatMessage>> prompts = List.of(
                List.of(user(prompt)),
                List.of(system("You answer from documents."), user(prompt)),
                // the context in a system message too, and in the user message twice
                List.of(system("Context:\n" + context), user(prompt + "\n" + context)),
                // the question inside the context, and the context inside the question
                List.of(user("Context: " + context + " " + question + "\nQ: " + question)),
                List.of(system("Rewrite the question."), user(question + " " + context)),
                // earlier user turns and assistants are not instructions; the last user message is
                List.of(user("old question"), new ChatMessage("assistant", "old answer"), user(prompt)),
                List.of(new ChatMessage("developer", "Be brief."), new ChatMessage("Human", prompt),
                        new ChatMessage(null, "no role"), new ChatMessage("system", null)),
                List.of(), List.of(user("")), List.of(system("")), List.of(user(null)),
                List.of(user("Ünïcödé 😀 context: " + context + " é " + question + " \u2028")),
                List.of(user("plain latin text after a wide one " + question)));
        List<PromptAnatomy.Parsed> anatomies = List.of(anatomy(question, context), anatomy(null, context),
                anatomy(question, null), anatomy("   ", context), anatomy("", null), anatomy(null, null),
                anatomy(question, "  \n "), anatomy("?", context), anatomy("\n", "\n\n"),
                anatomy(context, question), anatomy(question, question), anatomy("revenue", "Passage"),
                anatomy("😀", "é"), anatomy("aa", "aaa"), anatomy("Q: " + question + "\n\n", context + "\n"));
        for (List<ChatMessage> messages : prompts) {
            for (PromptAnatomy.Parsed a : anatomies) {
                assertSameInstructions(messages, a);
            }
        }
    }

    @Test
    void shouldReplaceAsStringReplaceDoes() {
        Random r = new Random(27);
        String[] alphabets = {"ab", "a\n", "ab\n ", "aé😀", "xyz"};
        for (int round = 0; round < 50_000; round++) {
            String alphabet = alphabets[r.nextInt(alphabets.length)];
            String text = random(r, alphabet, r.nextInt(40));
            String target = random(r, alphabet, r.nextInt(5));
            String replacement = r.nextInt(4) == 0 ? random(r, alphabet, r.nextInt(4)) : "\n";
            StringBuilder sb = new StringBuilder(text);
            ChatRoleRules.replaceAll(sb, target, replacement);
            assertThat(sb.toString()).as("'%s' in '%s' by '%s'", target, text, replacement)
                    .isEqualTo(text.replace(target, replacement));
        }
    }

    @Test
    void shouldGiveTheOldTextForRandomPrompts() {
        Random r = new Random(11);
        String alphabet = "ab \nQ:é";
        for (int round = 0; round < 20_000; round++) {
            List<ChatMessage> messages = new ArrayList<>();
            for (int m = r.nextInt(4); m >= 0; m--) {
                String role = List.of("system", "user", "assistant", "developer", "human").get(r.nextInt(5));
                messages.add(new ChatMessage(role, r.nextInt(10) == 0 ? null : random(r, alphabet, r.nextInt(30))));
            }
            String question = r.nextInt(4) == 0 ? null : random(r, alphabet, r.nextInt(4));
            String context = r.nextInt(4) == 0 ? null : random(r, alphabet, r.nextInt(6));
            assertSameInstructions(messages, anatomy(question, context));
        }
    }

    private static String random(Random r, String alphabet, int length) {
        int[] codePoints = alphabet.codePoints().toArray();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.appendCodePoint(codePoints[r.nextInt(codePoints.length)]);
        }
        return sb.toString();
    }
}
