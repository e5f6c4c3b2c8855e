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
}
