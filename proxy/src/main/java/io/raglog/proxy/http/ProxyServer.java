package io.raglog.proxy.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import java.net.InetSocketAddress;

/** Binds the client-facing port: HTTP/1.1 with keep-alive, each connection served by a {@link ClientHandler}. */
public final class ProxyServer {

    private final Channel serverChannel;

    private ProxyServer(Channel serverChannel) {
        this.serverChannel = serverChannel;
    }

    public static ProxyServer bind(EventLoopGroup group, InetSocketAddress address, ProxyRuntime runtime)
            throws InterruptedException {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(new HttpServerCodec(new HttpDecoderConfig()
                                        .setMaxInitialLineLength(16 * 1024)
                                        .setMaxHeaderSize(64 * 1024)
                                        .setMaxChunkSize(64 * 1024)))
                                .addLast(new HttpServerKeepAliveHandler())
                                // Answers "Expect: 100-continue" here, so the body streams upstream without a
                                // second round trip.
                                .addLast(new HttpServerExpectContinueHandler())
                                .addLast(new ClientHandler(runtime));
                    }
                });
        return new ProxyServer(bootstrap.bind(address).sync().channel());
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Stops accepting; connections already open finish with the event loops' graceful shutdown. */
    public void close() {
        serverChannel.close().syncUninterruptibly();
    }
}
