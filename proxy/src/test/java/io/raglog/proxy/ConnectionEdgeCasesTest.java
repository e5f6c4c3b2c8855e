package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.proxy.FakeUpstream.Reply;
import io.raglog.proxy.record.CallEventFactory;
import io.raglog.schemas.CallEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTP/1.1 at the edges, spoken on raw sockets: pipelining, Connection: close, an upstream dying mid-reply. */
class ConnectionEdgeCasesTest {

    @TempDir
    Path dir;

    private LoggingProxy proxy(String upstream) {
        return LoggingProxy.start(ProxyConfig.builder()
                .listenOnEphemeralPort()
                .route(Route.prefix("/api", upstream))
                .sink(SinkSpec.file(dir.resolve("calls.jsonl")))
                .build());
    }

    private static String post(String path, String body, String extraHeader) {
        return "POST " + path + " HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n" + extraHeader
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    /** Reads until the peer closes or {@code expected} JSON bodies ("}" at a response end) arrived. */
    private static String readResponses(InputStream in, int expected) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        int n;
        while ((n = in.read(buf)) > 0) {
            out.write(buf, 0, n);
            String text = out.toString(StandardCharsets.UTF_8);
            if (text.split("HTTP/1.1 ", -1).length - 1 >= expected && text.endsWith("}")) {
                break;
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldAnswerPipelinedRequestsInOrder() throws Exception {
        try (FakeUpstream upstream = new FakeUpstream().on("/echo", r -> Reply.json(200,
                "{\"echo\":" + new String(r.body(), StandardCharsets.UTF_8) + "}"));
                LoggingProxy proxy = proxy(upstream.baseUri().toString());
                Socket socket = new Socket("127.0.0.1", proxy.address().getPort())) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            out.write((post("/api/echo", "{\"n\":1}", "") + post("/api/echo", "{\"n\":2}", "")
                    + post("/api/echo", "{\"n\":3}", "")).getBytes(StandardCharsets.UTF_8));
            out.flush();

            String responses = readResponses(socket.getInputStream(), 3);

            assertThat(responses.split("HTTP/1.1 200 OK", -1)).hasSize(4);
            assertThat(responses.indexOf("{\"echo\":{\"n\":1}}")).isLessThan(responses.indexOf("{\"echo\":{\"n\":2}}"));
            assertThat(responses.indexOf("{\"echo\":{\"n\":2}}")).isLessThan(responses.indexOf("{\"echo\":{\"n\":3}}"));
            assertThat(new CallLog(dir.resolve("calls.jsonl")).awaitEvents(3)).hasSize(3);
        }
    }

    @Test
    void shouldCloseTheConnectionAfterTheResponseWhenTheClientAsksTo() throws Exception {
        try (FakeUpstream upstream = new FakeUpstream().on("/echo", Reply.json(200, "{\"ok\":true}"));
                LoggingProxy proxy = proxy(upstream.baseUri().toString());
                Socket socket = new Socket("127.0.0.1", proxy.address().getPort())) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(post("/api/echo", "{}", "Connection: close\r\n")
                    .getBytes(StandardCharsets.UTF_8));

            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(response).startsWith("HTTP/1.1 200 OK").endsWith("{\"ok\":true}");
            assertThat(upstream.last().header("Connection")).as("the client's Connection header stays on its hop")
                    .isNull();
        }
    }

    @Test
    void shouldCutTheClientOffAndRecordTheCallIncompleteWhenTheUpstreamDiesMidReply() throws Exception {
        String firstEvent = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Contoso\"}}]}\n\n";
        try (ServerSocket dying = new ServerSocket(0)) {
            CompletableFuture<Void> upstream = CompletableFuture.runAsync(() -> {
                try (Socket s = dying.accept()) {
                    InputStream in = s.getInputStream();
                    byte[] buf = new byte[8192];
                    int read = 0;
                    String seen = "";
                    while (!seen.contains("\r\n\r\n{") && (read = in.read(buf)) > 0) {
                        seen += new String(buf, 0, read, StandardCharsets.UTF_8);
                    }
                    byte[] chunk = firstEvent.getBytes(StandardCharsets.UTF_8);
                    s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(chunk.length) + "\r\n"
                            + firstEvent + "\r\n").getBytes(StandardCharsets.UTF_8));
                    s.getOutputStream().flush();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (LoggingProxy proxy = proxy("http://127.0.0.1:" + dying.getLocalPort())) {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(
                        proxy.baseUri().resolve("/api/v1/chat/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"stream\":true}")).build(),
                        HttpResponse.BodyHandlers.ofString()))
                        .as("a cut reply must not look complete to the client").isInstanceOf(IOException.class);
                upstream.get();

                CallEvent call = new CallLog(dir.resolve("calls.jsonl")).awaitEvents(1).get(0);
                assertThat(call.response().status()).isEqualTo(200);
                assertThat(call.response().body().textValue()).isEqualTo(firstEvent);
                assertThat(call.response().headers()).containsEntry(CallEventFactory.INCOMPLETE_HEADER,
                        "upstream closed the connection before the response ended");
                Eventually.await("the failure counted", Duration.ofSeconds(5),
                        () -> proxy.metrics().snapshot().upstreamFailures() == 1);
            }
        }
    }

    @Test
    void shouldRetryOnceOnAFreshConnectionWhenAPooledOneWasClosedByTheUpstream() throws Exception {
        // The first connection serves one call, then takes the next request and closes without answering, as a
        // server does whose keep-alive ran out just as the request arrived. The second connection serves it.
        try (ServerSocket server = new ServerSocket(0)) {
            List<String> served = new ArrayList<>();
            Thread upstream = new Thread(() -> {
                try (Socket first = server.accept()) {
                    readRequest(first.getInputStream());
                    answer(first, "{\"call\":0}");
                    served.add("first connection");
                    readRequest(first.getInputStream());
                } catch (IOException e) {
                    return;
                }
                try (Socket second = server.accept()) {
                    readRequest(second.getInputStream());
                    answer(second, "{\"call\":1}");
                    served.add("second connection");
                } catch (IOException e) {
                    return;
                }
            });
            upstream.start();
            try (LoggingProxy proxy = proxy("http://127.0.0.1:" + server.getLocalPort())) {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                for (int i = 0; i < 2; i++) {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(proxy.baseUri().resolve("/api/x"))
                            .POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(r.body()).isEqualTo("{\"call\":" + i + "}");
                }
                assertThat(proxy.metrics().snapshot().upstreamFailures()).isZero();
            }
            upstream.join(10_000);
            assertThat(served).containsExactly("first connection", "second connection");
        }
    }

    private static void readRequest(InputStream in) throws IOException {
        byte[] buf = new byte[8192];
        String seen = "";
        int read;
        while (!seen.endsWith("{}") && (read = in.read(buf)) > 0) {
            seen += new String(buf, 0, read, StandardCharsets.UTF_8);
        }
    }

    private static void answer(Socket s, String body) throws IOException {
        s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
        s.getOutputStream().flush();
    }
}
