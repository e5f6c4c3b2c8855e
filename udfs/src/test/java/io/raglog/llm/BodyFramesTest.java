package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A body framed is the body the vendor writes whole, whatever the system message, past the frames kept, or none. */
class BodyFramesTest {

    @Test
    void shouldSendTheBytesTheVendorWritesWhole() {
        for (String provider : List.of("openai", "anthropic")) {
            LlmSettings settings = LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, provider,
                    LlmSettings.BASE_URL, "http://127.0.0.1:9/v1", LlmSettings.MODEL, "m"));
            try (ChatProvider chat = ChatProviders.create(settings)) {
                HttpChatProvider http = (HttpChatProvider) chat;
                for (int i = 0; i < 100; i++) { // past the 64 frames kept
                    for (EscapedText user : new EscapedText[] {EscapedText.of("run " + i + " \"data\"\n"), null}) {
                        ChatRequest request = new ChatRequest("p", "system " + (i % 70) + " é", user, 100 + i % 3);
                        assertThat(joined(http.requestBody(request))).as("%s %d", provider, i)
                                .isEqualTo(joined(http.writtenBody(request)));
                    }
                }
            }
        }
    }

    private static byte[] joined(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }
}
