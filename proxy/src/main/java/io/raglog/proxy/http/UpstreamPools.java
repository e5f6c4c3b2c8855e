package io.raglog.proxy.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.Future;
import io.raglog.proxy.Route;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * Keep-alive connections to the upstreams, one pool per event loop and upstream origin: a call is served start to end
 * on its client connection's event loop, with no hand-off between threads. Idle connections are closed before a
 * typical server's keep-alive runs out, so a reused connection is rarely one the server is closing.
 */
public final class UpstreamPools implements AutoCloseable {

    private record Key(EventLoop loop, boolean https, String host, int port) {}

    private final Map<Key, SimpleChannelPool> pools = new ConcurrentHashMap<>();
    private final SslContext ssl;
    private final int connectTimeoutMillis;
    private final long idleTimeoutMillis;

    public UpstreamPools(Duration connectTimeout, Duration idleTimeout, Path extraCa) {
        this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis());
        this.idleTimeoutMillis = idleTimeout.toMillis();
        this.ssl = sslContext(extraCa);
    }

    /** A connection to the route's upstream on {@code loop}: an idle pooled one when there is one, else a new one. */
    Future<Channel> acquire(EventLoop loop, Route route) {
        return pool(loop, route).acquire();
    }

    /** Back to the pool for the next call; the pool closes it instead if it is no longer usable. */
    void release(Channel channel, EventLoop loop, Route route) {
        pool(loop, route).release(channel);
    }

    private SimpleChannelPool pool(EventLoop loop, Route route) {
        Key key = new Key(loop, route.https(), route.upstreamHost(), route.upstreamPort());
        return pools.computeIfAbsent(key, this::newPool);
    }

    private SimpleChannelPool newPool(Key key) {
        // Unresolved, so each new connection looks the name up again (through the JDK's cache) and follows DNS changes.
        Bootstrap bootstrap = new Bootstrap()
                .group(key.loop())
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .remoteAddress(InetSocketAddress.createUnresolved(key.host(), key.port()));
        return new SimpleChannelPool(bootstrap, new AbstractChannelPoolHandler() {
            @Override
            public void channelCreated(Channel ch) {
                ChannelPipeline p = ch.pipeline();
                if (key.https()) {
                    p.addLast(sslHandler(ch, key.host(), key.port()));
                }
                p.addLast(new HttpClientCodec(new HttpDecoderConfig()
                        .setMaxInitialLineLength(16 * 1024)
                        .setMaxHeaderSize(64 * 1024)
                        .setMaxChunkSize(64 * 1024), false, false));
                p.addLast(new IdleStateHandler(0, 0, idleTimeoutMillis, TimeUnit.MILLISECONDS));
                p.addLast(UpstreamHandler.NAME, new UpstreamHandler());
            }
        }, ChannelHealthChecker.ACTIVE, true, false);
    }

    private SslHandler sslHandler(Channel ch, String host, int port) {
        SslHandler handler = ssl.newHandler(ch.alloc(), host, port);
        SSLEngine engine = handler.engine();
        SSLParameters params = engine.getSSLParameters();
        // Verify the upstream is who the route names; SNI comes from the host passed above.
        params.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(params);
        return handler;
    }

    private static SslContext sslContext(Path extraCa) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().protocols("TLSv1.3", "TLSv1.2");
            if (extraCa != null) {
                builder.trustManager(TrustMaterial.jdkDefaultsPlus(extraCa));
            }
            return builder.build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up TLS to upstreams", e);
        }
    }

    @Override
    public void close() {
        pools.values().forEach(SimpleChannelPool::close);
        pools.clear();
    }

    /** The JDK's default trust anchors plus a PEM file of extra ones (a self-hosted upstream's CA). */
    static final class TrustMaterial {
        private TrustMaterial() {}

        static javax.net.ssl.TrustManagerFactory jdkDefaultsPlus(Path pem) throws IOException {
            try {
                java.security.KeyStore store = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
                store.load(null, null);
                javax.net.ssl.TrustManagerFactory defaults = javax.net.ssl.TrustManagerFactory.getInstance(
                        javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                defaults.init((java.security.KeyStore) null);
                int n = 0;
                for (javax.net.ssl.TrustManager tm : defaults.getTrustManagers()) {
                    if (tm instanceof javax.net.ssl.X509TrustManager x509) {
                        for (java.security.cert.X509Certificate cert : x509.getAcceptedIssuers()) {
                            store.setCertificateEntry("jdk-" + n++, cert);
                        }
                    }
                }
                java.security.cert.CertificateFactory cf = java.security.cert.CertificateFactory.getInstance("X.509");
                try (InputStream in = Files.newInputStream(pem)) {
                    for (java.security.cert.Certificate cert : cf.generateCertificates(in)) {
                        store.setCertificateEntry("extra-" + n++, cert);
                    }
                }
                javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                        javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(store);
                return tmf;
            } catch (java.security.GeneralSecurityException e) {
                throw new IOException("cannot read the upstream CA file " + pem + ": " + e.getMessage(), e);
            }
        }
    }
}
