package io.raglog.proxy.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.raglog.proxy.Routes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a client connection: one call at a time (HTTP/1.1 keep-alive), pipelined requests held until
 * the response before them is out, requests with no route answered by the proxy itself.
 */
final class ClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ClientHandler.class);

    private final ProxyRuntime runtime;
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private Exchange exchange;

    ClientHandler(ProxyRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!pending.isEmpty() || (exchange != null && exchange.requestComplete())) {
            pending.add(msg);
            return;
        }
        handle(msg);
    }

    private void handle(Object msg) {
        if (msg instanceof HttpRequest request) {
            startCall(request);
        }
        if (msg instanceof HttpContent content) {
            if (exchange != null && !exchange.requestComplete()) {
                exchange.requestContent(content);
            } else {
                content.release(); // the body of a request answered without an upstream (no route, bad request)
            }
        } else if (!(msg instanceof HttpRequest)) {
            ReferenceCountUtil.release(msg);
        }
    }

    private void startCall(HttpRequest request) {
        runtime.metrics().request();
        if (request.decoderResult().isFailure()) {
            respond(HttpResponseStatus.BAD_REQUEST, "raglog proxy: malformed request: "
                    + request.decoderResult().cause().getMessage(), true);
            return;
        }
        Routes.Match match = runtime.routes().resolve(request.uri(), request.headers().get(HttpHeaderNames.HOST));
        if (match == null) {
            runtime.metrics().noRoute();
            respond(HttpResponseStatus.NOT_FOUND, "raglog proxy: no route for " + pathOf(request.uri())
                    + " (routes map a path prefix or a Host to an upstream)", false);
            return;
        }
        exchange = new Exchange(runtime, this, ctx.channel(), match, request);
        exchange.start();
    }

    /** Called by the exchange when its response is out (or abandoned): the next pipelined request may start. */
    void exchangeDone() {
        exchange = null;
        if (!ctx.channel().isActive()) {
            releasePending();
            return;
        }
        // When the upstream answered before the client finished sending, the rest of that body arrives with no
        // exchange to take it and is released in handle().
        ctx.channel().config().setAutoRead(true);
        while (!pending.isEmpty() && (exchange == null || !exchange.requestComplete())) {
            handle(pending.poll());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (exchange != null && ctx.channel().isWritable()) {
            exchange.clientWritable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Exchange current = exchange;
        exchange = null;
        if (current != null) {
            current.clientClosed();
        }
        releasePending();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("client connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    private void respond(HttpResponseStatus status, String message, boolean close) {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        HttpUtil.setContentLength(response, body.length);
        if (close) {
            HttpUtil.setKeepAlive(response, false);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response);
        }
    }

    private void releasePending() {
        while (!pending.isEmpty()) {
            ReferenceCountUtil.release(pending.poll());
        }
    }

    private static String pathOf(String uri) {
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        return path.length() > 200 ? path.substring(0, 200) + "..." : path;
    }
}
