package io.raglog.bench.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.raglog.bench.LocalHttpServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The upstream both sides of the benchmark call: answers every request at once with a fixed OpenAI chat completion,
 * keep-alive, on one event loop thread, so what differs between the two sides is the proxy alone.
 */
final class LocalUpstream implements AutoCloseable {

    private final LocalHttpServer server;

    LocalUpstream(String replyJson) throws InterruptedException {
        byte[] reply = replyJson.getBytes(StandardCharsets.UTF_8);
        server = new LocalHttpServer("bench-upstream", 1, 1 << 20,
                () -> new SimpleChannelInboundHandler<FullHttpRequest>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                FullHttpResponse response = LocalHttpServer.jsonResponse(HttpResponseStatus.OK, reply,
                        HttpUtil.isKeepAlive(request));
                response.headers().set("x-request-id", "req_bench").set("openai-processing-ms", "1");
                ctx.writeAndFlush(response);
            }
        });
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    @Override
    public void close() {
        server.close();
    }
}
