package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChatDetailTest {

    /** {@link ChatDetail#promptText} as it was written with a builder. */
    private static String builtPromptText(List<ChatMessage> messages) {
        StringBuilder sb = new StringBuilder();
        for (ChatMessage m : messages) {
            if (sb.length() > 0) {
                sb.append("\n\n");
            }
            sb.append(m.content() == null ? "" : m.content());
        }
        return sb.toString();
    }

    @Test
    void shouldJoinTheMessagesAsTheBuilderDid() {
        String[] contents = {null, "", "You answer from the context.", "Context: “Acme” — 4,100 units", "Σοφία?", "\n",
                "x"};
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 5_000; i++) {
            List<ChatMessage> messages = new ArrayList<>();
            int n = random.nextInt(0, 5);
            for (int k = 0; k < n; k++) {
                messages.add(new ChatMessage(random.nextBoolean() ? "user" : "system",
                        contents[random.nextInt(contents.length)]));
            }
            ChatDetail chat = new ChatDetail("test.chat", "m", messages, null, TokenUsage.UNKNOWN, null, null, null,
                    List.of(), false);
            assertThat(chat.promptText()).as("%s", messages).isEqualTo(builtPromptText(messages));
        }
    }

    /** {@link ChatDetail#promptParts} as it was: a list of the contents, leading empty ones left out. */
    private static List<String> listedPromptParts(List<ChatMessage> messages) {
        List<String> contents = new ArrayList<>(messages.size());
        for (ChatMessage m : messages) {
            String content = m.content() == null ? "" : m.content();
            if (contents.isEmpty() && content.isEmpty()) {
                continue;
            }
            contents.add(content);
        }
        return contents;
    }

    @Test
    void shouldGiveThePartsAndTextTheListGave() {
        String[] contents = {null, "", " ", "  \n\t ", "You answer from the context.", "“Acme” — 4,100 units",
            "Σοφία?", "😀 pair", "\uD83D", "\uDE00 lone", "\n", "x"};
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 5_000; i++) {
            List<ChatMessage> messages = new ArrayList<>();
            for (int k = random.nextInt(0, 6); k > 0; k--) {
                messages.add(new ChatMessage("user", contents[random.nextInt(contents.length)]));
            }
            ChatDetail chat = new ChatDetail("test.chat", "m", messages, null, TokenUsage.UNKNOWN, null, null, null,
                    List.of(), false);
            List<String> listed = listedPromptParts(messages);
            assertThat(chat.promptParts()).as("%s", messages).containsExactlyElementsOf(listed);
            String joined = listed.size() == 1 ? listed.get(0) : String.join(ChatDetail.PROMPT_SEPARATOR, listed);
            assertThat(chat.promptText()).as("%s", messages).isEqualTo(joined);
            if (listed.size() == 1) {
                assertThat(chat.promptText()).isSameAs(listed.get(0)); // a lone content is not copied
            }
        }
    }
}
