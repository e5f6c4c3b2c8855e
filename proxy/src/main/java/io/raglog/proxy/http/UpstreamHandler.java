package io.raglog.proxy.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;

/**
 * The last handler of a pooled upstream connection: hands what the upstream sends to the exchange currently using the
 * connection. Bound to at most one exchange at a time; an idle connection is closed when its idle timer fires.
 */
final class UpstreamHandler extends ChannelInboundHandlerAdapter {

    static final String NAME = "raglog-upstream";

    private Exchange exchange;

    void bind(Exchange exchange) {
        this.exchange = exchange;
    }

    void unbind() {
        this.exchange = null;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Exchange current = exchange;
        if (current == null) {
            // Bytes from an upstream no call is waiting on: nothing can use them, and the connection's state is unknown.
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        if (msg instanceof HttpResponse response) {
            current.responseHead(response);
        }
        if (msg instanceof HttpContent content) {
            current.responseContent(content);
        } else if (!(msg instanceof HttpResponse)) {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        Exchange current = exchange;
        if (current != null) {
            current.flushToClient();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Exchange current = exchange;
        if (current != null && ctx.channel().isWritable()) {
            current.upstreamWritable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Exchange current = exchange;
        exchange = null;
        if (current != null) {
            current.upstreamClosed(null);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Exchange current = exchange;
        exchange = null;
        if (current != null) {
            current.upstreamClosed(cause);
        }
        ctx.close();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent && exchange == null) {
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }
}
