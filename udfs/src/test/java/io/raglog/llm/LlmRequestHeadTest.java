package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The request line and headers each provider writes, byte for byte, as read off a socket: the endpoint and headers are
 * made once per provider ({@link ChatEndpoint}), and what goes on the wire is what preparing each POST afresh wrote.
 */
class LlmRequestHeadTest {

    private static final String KEY = "sk-test-7f3a9c1e5b";

    @Test
    void shouldWriteTheSameHeadForOpenAi() throws Exception {
        assertThat(head("openai", "/v1")).isEqualTo("POST /v1/chat/completions HTTP/1.1\r\n"
                + "content-type: application/json\r\n"
                + "authorization: Bearer " + KEY + "\r\n"
                + "content-length: 160\r\n"
                + "host: 127.0.0.1:PORT\r\n"
                + "accept: */*\r\n"
                + "user-agent: raglog\r\n\r\n");
    }

    @Test
    void shouldWriteTheSameHeadForAnthropic() throws Exception {
        assertThat(head("anthropic", "/v1")).isEqualTo("POST /v1/messages HTTP/1.1\r\n"
                + "content-type: application/json\r\n"
                + "anthropic-version: 2023-06-01\r\n"
                + "x-api-key: " + KEY + "\r\n"
                + "content-length: 100\r\n"
                + "host: 127.0.0.1:PORT\r\n"
                + "accept: */*\r\n"
                + "user-agent: raglog\r\n\r\n");
    }

    @Test
    void shouldWriteTheSameHeadForBedrockWithAnApiKey() throws Exception {
        assertThat(head("bedrock", "")).isEqualTo("POST /model/m/converse HTTP/1.1\r\n"
                + "content-type: application/json\r\n"
                + "authorization: Bearer " + KEY + "\r\n"
                + "content-length: 129\r\n"
                + "host: 127.0.0.1:PORT\r\n"
                + "accept: */*\r\n"
                + "user-agent: raglog\r\n\r\n");
    }

    /** The head of the one request the provider sends, the port written as PORT. */
    private static String head(String provider, String path) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String base = "http://127.0.0.1:" + server.getLocalPort() + path;
            LlmSettings settings = LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, provider,
                    LlmSettings.BASE_URL, base, LlmSettings.MODEL, "m", LlmSettings.API_KEY, KEY,
                    LlmSettings.TIMEOUT_MS, "5000"));
            try (ChatProvider chat = ChatProviders.create(settings)) {
                CompletableFuture<ChatReply> reply = chat.send(new ChatRequest("p", "s", EscapedText.of("u"), 5));
                try (Socket socket = server.accept()) {
                    socket.setSoTimeout(5000);
                    String head = readHead(socket.getInputStream());
                    reply.completeExceptionally(new IllegalStateException("not answered"));
                    return head.replace(":" + server.getLocalPort(), ":PORT");
                } finally {
                    reply.exceptionally(e -> null).get(5, TimeUnit.SECONDS);
                }
            }
        }
    }

    private static String readHead(InputStream in) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            String s = head.toString(StandardCharsets.ISO_8859_1);
            if (s.endsWith("\r\n\r\n")) {
                return s;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
