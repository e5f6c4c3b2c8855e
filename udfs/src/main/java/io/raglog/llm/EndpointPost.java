package io.raglog.llm;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.resolver.NameResolver;
import java.io.File;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.List;
import org.asynchttpclient.Param;
import org.asynchttpclient.Realm;
import org.asynchttpclient.Request;
import org.asynchttpclient.channel.ChannelPoolPartitioning;
import org.asynchttpclient.proxy.ProxyServer;
import org.asynchttpclient.request.body.generator.BodyGenerator;
import org.asynchttpclient.request.body.multipart.Part;
import org.asynchttpclient.uri.Uri;

/**
 * One POST of an endpoint: its body, and everything else read from the endpoint's request, built once. A request
 * builder per POST made a header map only to drop it for the endpoint's, then the request: some 0.5 KB a POST on the
 * calling thread. async-http-client only reads a request.
 */
final class EndpointPost implements Request {

    private final Request prototype;
    private final HttpHeaders headers;
    private final ByteBuf body;

    /**
     * @param prototype the endpoint's request, without a body
     * @param headers the prototype's own, shared, or theirs with this POST's added (a signature of its body)
     */
    EndpointPost(Request prototype, HttpHeaders headers, ByteBuf body) {
        this.prototype = prototype;
        this.headers = headers;
        this.body = body;
    }

    @Override
    public ByteBuf getByteBufData() {
        return body;
    }

    @Override
    public String getMethod() {
        return prototype.getMethod();
    }

    @Override
    public Uri getUri() {
        return prototype.getUri();
    }

    @Override
    public String getUrl() {
        return prototype.getUrl();
    }

    @Override
    public InetAddress getAddress() {
        return prototype.getAddress();
    }

    @Override
    public InetAddress getLocalAddress() {
        return prototype.getLocalAddress();
    }

    @Override
    public HttpHeaders getHeaders() {
        return headers;
    }

    @Override
    public List<Cookie> getCookies() {
        return prototype.getCookies();
    }

    @Override
    public byte[] getByteData() {
        return prototype.getByteData();
    }

    @Override
    public List<byte[]> getCompositeByteData() {
        return prototype.getCompositeByteData();
    }

    @Override
    public String getStringData() {
        return prototype.getStringData();
    }

    @Override
    public ByteBuffer getByteBufferData() {
        return prototype.getByteBufferData();
    }

    @Override
    public InputStream getStreamData() {
        return prototype.getStreamData();
    }

    @Override
    public BodyGenerator getBodyGenerator() {
        return prototype.getBodyGenerator();
    }

    @Override
    public List<Param> getFormParams() {
        return prototype.getFormParams();
    }

    @Override
    public List<Part> getBodyParts() {
        return prototype.getBodyParts();
    }

    @Override
    public String getVirtualHost() {
        return prototype.getVirtualHost();
    }

    @Override
    public List<Param> getQueryParams() {
        return prototype.getQueryParams();
    }

    @Override
    public ProxyServer getProxyServer() {
        return prototype.getProxyServer();
    }

    @Override
    public Realm getRealm() {
        return prototype.getRealm();
    }

    @Override
    public File getFile() {
        return prototype.getFile();
    }

    @Override
    public Boolean getFollowRedirect() {
        return prototype.getFollowRedirect();
    }

    @Override
    public Boolean getUseAbsoluteRequestDeadline() {
        return prototype.getUseAbsoluteRequestDeadline();
    }

    @Override
    public Boolean getRefuseSchemeDowngradeOnRedirect() {
        return prototype.getRefuseSchemeDowngradeOnRedirect();
    }

    @Override
    public Boolean getRefuseCrossOriginBodyOnRedirect() {
        return prototype.getRefuseCrossOriginBodyOnRedirect();
    }

    @Override
    public Duration getRequestTimeout() {
        return prototype.getRequestTimeout();
    }

    @Override
    public Duration getReadTimeout() {
        return prototype.getReadTimeout();
    }

    @Override
    public long getRangeOffset() {
        return prototype.getRangeOffset();
    }

    @Override
    public Charset getCharset() {
        return prototype.getCharset();
    }

    @Override
    public ChannelPoolPartitioning getChannelPoolPartitioning() {
        return prototype.getChannelPoolPartitioning();
    }

    @Override
    public NameResolver<InetAddress> getNameResolver() {
        return prototype.getNameResolver();
    }
}
