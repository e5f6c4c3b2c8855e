package io.raglog.bench.proxy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The upstream both sides of the benchmark call: answers every request at once with a fixed OpenAI chat completion,
 * keep-alive, on one event loop thread, so what differs between the two sides is the proxy alone.
 */
final class LocalUpstream implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel channel;

    LocalUpstream(String replyJson) throws InterruptedException {
        byte[] reply = replyJson.getBytes(StandardCharsets.UTF_8);
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("bench-upstream", true),
                NioIoHandler.newFactory());
        channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                new HttpObjectAggregator(1 << 20), new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                                        ByteBuf body = Unpooled.wrappedBuffer(reply);
                                        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                                HttpResponseStatus.OK, body);
                                        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                                                .set("x-request-id", "req_bench").set("openai-processing-ms", "1");
                                        HttpUtil.setContentLength(response, reply.length);
                                        HttpUtil.setKeepAlive(response, HttpUtil.isKeepAlive(request));
                                        ctx.writeAndFlush(response);
                                    }
                                });
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort());
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
