package io.raglog.bench.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
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
                ByteBuf body = Unpooled.wrappedBuffer(reply);
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        body);
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                        .set("x-request-id", "req_bench").set("openai-processing-ms", "1");
                HttpUtil.setContentLength(response, reply.length);
                HttpUtil.setKeepAlive(response, HttpUtil.isKeepAlive(request));
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
