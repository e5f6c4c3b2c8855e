package io.raglog.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The benchmarks' local HTTP servers (the proxy's upstream, the stand-in LLM endpoint): Netty on loopback, keep-alive,
 * whole requests aggregated, on a few event-loop threads, so that the server under the benchmark costs little and
 * answers at its own pace rather than a thread pool's.
 */
public final class LocalHttpServer implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel channel;

    /**
     * @param handler a new handler per connection; it receives {@code FullHttpRequest}s of up to {@code maxBodyBytes}
     */
    public LocalHttpServer(String threadName, int threads, int maxBodyBytes, Supplier<ChannelHandler> handler)
            throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(threadName, true),
                NioIoHandler.newFactory());
        channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                new HttpObjectAggregator(maxBodyBytes), handler.get());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    /** A JSON response of these bytes, keep-alive as the request asked; the caller may add headers, then writes it. */
    public static FullHttpResponse jsonResponse(HttpResponseStatus status, byte[] body, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        HttpUtil.setContentLength(response, body.length);
        HttpUtil.setKeepAlive(response, keepAlive);
        return response;
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
