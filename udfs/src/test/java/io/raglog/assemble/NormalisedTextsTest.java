package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.schemas.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The memo of normalised texts, sized per call and merged without putAll, gives what normalising gives. */
class NormalisedTextsTest {

    private static final String[] WORDS = {"The", "passage", "  ", "\n", "ΣΟΦΙΑ", "İstanbul", "“quoted”", "😀", "\uD83D",
        "x", ""};

    @Test
    void shouldGiveWhatNormalisingGivesHoweverSizedAndMerged() {
        Random random = new Random(17);
        for (int round = 0; round < 300; round++) {
            List<NormalisedTexts> calls = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            List<String> normalisedByCall = new ArrayList<>();
            for (int c = random.nextInt(5); c >= 0; c--) {
                // sized for fewer texts than it gets, for as many, for more, or not at all
                int holds = random.nextInt(30);
                int[] sizes = {0, 1, holds, holds + 5};
                NormalisedTexts call = random.nextInt(5) == 0 ? new NormalisedTexts()
                        : new NormalisedTexts(sizes[random.nextInt(sizes.length)]);
                for (int t = 0; t < holds; t++) {
                    String text = text(random);
                    texts.add(text);
                    String normalised = call.text(text);
                    assertThat(normalised).isEqualTo(Texts.norm(text));
                    normalisedByCall.add(normalised);
                }
                calls.add(call);
            }
            int total = 0;
            for (NormalisedTexts call : calls) {
                total += call.size();
            }
            NormalisedTexts run = new NormalisedTexts(random.nextBoolean() ? total : 0);
            calls.forEach(run::addAll);
            assertThat(run.size()).isEqualTo(total);
            // each text is found, not normalised again: the very string its call made
            for (int i = 0; i < texts.size(); i++) {
                assertThat(run.text(texts.get(i))).isSameAs(normalisedByCall.get(i));
            }
            ChatDetail chat = chat(random);
            String prompt = run.prompt(chat);
            assertThat(prompt).isEqualTo(Texts.norm(chat.promptText()));
            assertThat(run.prompt(chat)).isSameAs(prompt);
        }
        assertThat(new NormalisedTexts(0).size()).isZero();
    }

    private static ChatDetail chat(Random random) {
        List<ChatMessage> messages = new ArrayList<>();
        for (int n = random.nextInt(4); n >= 0; n--) {
            messages.add(new ChatMessage("user", random.nextInt(6) == 0 ? null : text(random)));
        }
        return new ChatDetail("test.chat", "m", messages, null, TokenUsage.UNKNOWN, null, null, null, List.of(), false);
    }

    /** A new string each time, so that identity keys differ as logged copies do. */
    private static String text(Random random) {
        StringBuilder b = new StringBuilder();
        for (int n = random.nextInt(8); n > 0; n--) {
            b.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        return new String(b.toString().toCharArray());
    }
}
