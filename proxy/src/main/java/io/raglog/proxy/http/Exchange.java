package io.raglog.proxy.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.FutureListener;
import io.raglog.proxy.Routes;
import io.raglog.proxy.record.BodyCapture;
import io.raglog.proxy.record.CapturedBody;
import io.raglog.proxy.record.CapturedCall;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One call in flight: the client's request streamed to a pooled upstream connection, the upstream's response streamed
 * back as it arrives, and a capped copy of both kept for the recording. Lives on the client connection's event loop
 * from start to end, so it needs no locks; every path ends in {@link #finish} exactly once.
 */
final class Exchange {

    /** A reused connection the upstream had already closed gets one retry on a fresh one; nothing else is retried. */
    private static final int MAX_ATTEMPTS = 2;
    private static final AttributeKey<Boolean> USED = AttributeKey.valueOf("raglog.upstream.used");

    private final ProxyRuntime runtime;
    private final ClientHandler owner;
    private final Channel client;
    private final Routes.Match match;
    private final HttpRequest forwardedHead;
    private final List<Map.Entry<String, String>> recordedRequestHeaders;
    private final Instant startedAt = Instant.now();
    private final long startNanos = System.nanoTime();
    private final BodyCapture requestBody;
    private final BodyCapture responseBody;
    /** Request pieces that arrived before the upstream connection was ready. */
    private final ArrayDeque<HttpContent> waiting = new ArrayDeque<>();

    private Channel upstream;
    private boolean upstreamReused;
    private int attempts;
    private boolean requestComplete;
    private long requestCompleteNanos;
    private long requestSentNanos = -1;
    private boolean skippingInformational;
    private boolean responseStarted;
    private long responseHeadNanos;
    private long responseHeadOutNanos = -1;
    private boolean upstreamKeepAlive;
    private int status;
    private List<Map.Entry<String, String>> responseHeaders = List.of();
    private boolean finished;

    Exchange(ProxyRuntime runtime, ClientHandler owner, Channel client, Routes.Match match, HttpRequest request) {
        this.runtime = runtime;
        this.owner = owner;
        this.client = client;
        this.match = match;
        HttpHeaders forwarded = ForwardedHeaders.request(request.headers(), match.route().upstreamAuthority());
        this.forwardedHead = new DefaultHttpRequest(HttpVersion.HTTP_1_1, request.method(),
                match.upstreamPathAndQuery(), forwarded);
        List<Map.Entry<String, String>> recorded = new ArrayList<>(ForwardedHeaders.entries(forwarded));
        recorded.addAll(ForwardedHeaders.raglogHeaders(request.headers()));
        this.recordedRequestHeaders = recorded;
        this.requestBody = new BodyCapture(runtime.maxRecordedBodyBytes());
        this.responseBody = new BodyCapture(runtime.maxRecordedBodyBytes());
    }

    void start() {
        runtime.metrics().callStarted();
        acquireUpstream();
    }

    boolean requestComplete() {
        return requestComplete;
    }

    private void acquireUpstream() {
        attempts++;
        runtime.pools().acquire(client.eventLoop(), match.route())
                .addListener((FutureListener<Channel>) this::upstreamReady);
    }

    private void upstreamReady(Future<Channel> acquired) {
        if (finished) {
            // The client left while the connection was being made; a good connection still goes back to the pool.
            if (acquired.isSuccess()) {
                runtime.pools().release(acquired.getNow(), client.eventLoop(), match.route());
            }
            return;
        }
        if (!acquired.isSuccess()) {
            runtime.metrics().upstreamFailure();
            failBeforeResponse("cannot reach " + match.route().upstreamOrigin() + ": " + describe(acquired.cause()));
            return;
        }
        Channel channel = acquired.getNow();
        upstream = channel;
        upstreamReused = channel.attr(USED).getAndSet(Boolean.TRUE) != null;
        channel.pipeline().get(UpstreamHandler.class).bind(this);
        if (attempts == 1) {
            // Not flushed alone: the body (or the empty last piece) follows at once and goes out in the same write.
            channel.write(forwardedHead);
            while (!waiting.isEmpty()) {
                sendUpstream(waiting.poll());
            }
        } else {
            // The retry resends the request from the capture, which holds all of it (checked before retrying).
            channel.write(new DefaultHttpRequest(HttpVersion.HTTP_1_1, forwardedHead.method(), forwardedHead.uri(),
                    forwardedHead.headers().copy()));
            markSent(channel.writeAndFlush(new DefaultLastHttpContent(Unpooled.wrappedBuffer(requestBody.kept()))));
        }
    }

    /** A piece of the client's request body (the last one included). */
    void requestContent(HttpContent content) {
        requestBody.append(content.content());
        boolean last = content instanceof LastHttpContent;
        if (last) {
            requestComplete = true;
            requestCompleteNanos = System.nanoTime();
            // Hold the client's next (pipelined) request until this response is out.
            client.config().setAutoRead(false);
        }
        if (finished) {
            content.release();
        } else if (upstream == null) {
            waiting.add(content);
        } else {
            sendUpstream(content);
        }
    }

    private void sendUpstream(HttpContent content) {
        if (content instanceof LastHttpContent) {
            markSent(upstream.writeAndFlush(content));
            return;
        }
        upstream.writeAndFlush(content);
        if (!upstream.isWritable() && !requestComplete) {
            client.config().setAutoRead(false); // a large upload outpacing the upstream: let TCP push back
        }
    }

    private void markSent(ChannelFuture lastPiece) {
        lastPiece.addListener(f -> requestSentNanos = System.nanoTime());
    }

    void responseHead(HttpResponse response) {
        int code = response.status().code();
        if (code >= 100 && code < 200 && code != 101) {
            skippingInformational = true; // 100/103: the proxy answers Expect itself; early hints are optional
            return;
        }
        if (response.decoderResult().isFailure()) {
            upstream.close();
            return;
        }
        responseHeadNanos = System.nanoTime();
        status = code;
        responseHeaders = ForwardedHeaders.entries(response.headers());
        upstreamKeepAlive = HttpUtil.isKeepAlive(response);
        responseStarted = true;
        client.write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, response.status(),
                ForwardedHeaders.response(response.headers())))
                .addListener(f -> responseHeadOutNanos = System.nanoTime());
    }

    void responseContent(HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        if (skippingInformational || !responseStarted) {
            content.release();
            skippingInformational = skippingInformational && !last;
            return;
        }
        if (content.decoderResult().isFailure()) {
            content.release();
            upstream.close();
            return;
        }
        responseBody.append(content.content());
        if (!last) {
            client.write(content);
            if (!client.isWritable()) {
                upstream.config().setAutoRead(false); // a slow client: let the upstream wait rather than buffer here
            }
            return;
        }
        releaseUpstream(upstreamKeepAlive && requestComplete);
        client.writeAndFlush(content).addListener(f -> finish(f.isSuccess() ? null
                : "client closed the connection before the response ended"));
    }

    void flushToClient() {
        client.flush();
    }

    void upstreamWritable() {
        if (!requestComplete) {
            client.config().setAutoRead(true);
        }
    }

    void clientWritable() {
        if (upstream != null) {
            upstream.config().setAutoRead(true);
        }
    }

    /** The upstream connection closed or failed while this call was using it. */
    void upstreamClosed(Throwable cause) {
        if (finished) {
            return;
        }
        releaseUpstream(false);
        if (!responseStarted) {
            if (upstreamReused && requestComplete && !requestBody.truncated() && attempts < MAX_ATTEMPTS) {
                // Most likely the upstream closed an idle keep-alive connection as the request went out.
                acquireUpstream();
                return;
            }
            runtime.metrics().upstreamFailure();
            failBeforeResponse(match.route().upstreamOrigin() + " closed the connection before responding"
                    + (cause == null ? "" : ": " + describe(cause)));
            return;
        }
        runtime.metrics().upstreamFailure();
        // The client already has part of the response; closing is the only way left to tell it the rest is lost.
        client.close();
        finish("upstream closed the connection before the response ended");
    }

    /** The client connection closed while this call was in flight: abort the upstream call too. */
    void clientClosed() {
        if (finished) {
            return;
        }
        releaseUpstream(false);
        finish("client closed the connection before the response ended");
    }

    private void releaseUpstream(boolean reuse) {
        Channel channel = upstream;
        if (channel == null) {
            return;
        }
        upstream = null;
        UpstreamHandler handler = channel.pipeline().get(UpstreamHandler.class);
        if (handler != null) {
            handler.unbind();
        }
        channel.config().setAutoRead(true);
        if (!reuse) {
            channel.close();
        }
        runtime.pools().release(channel, client.eventLoop(), match.route());
    }

    private void failBeforeResponse(String reason) {
        byte[] body = ("raglog proxy: " + reason + "\n").getBytes(StandardCharsets.UTF_8);
        status = HttpResponseStatus.BAD_GATEWAY.code();
        responseHeaders = List.of(
                new AbstractMap.SimpleImmutableEntry<>("content-type", "text/plain; charset=utf-8"),
                new AbstractMap.SimpleImmutableEntry<>("content-length", Integer.toString(body.length)));
        responseBody.append(Unpooled.wrappedBuffer(body));
        responseStarted = true;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        HttpUtil.setContentLength(response, body.length);
        client.writeAndFlush(response).addListener(f -> finish("upstream unreachable"));
    }

    private void finish(String incomplete) {
        if (finished) {
            return;
        }
        finished = true;
        runtime.metrics().callEnded();
        long endNanos = System.nanoTime();
        while (!waiting.isEmpty()) {
            ReferenceCountUtil.release(waiting.poll());
        }
        if (incomplete == null && requestSentNanos >= 0 && responseHeadOutNanos >= 0) {
            // The proxy's own share: request hop (incl. getting a connection) plus the response head hop.
            runtime.metrics().addedLatency((requestSentNanos - requestCompleteNanos)
                    + (responseHeadOutNanos - responseHeadNanos));
        }
        runtime.metrics().bytes(requestBody.total(), responseBody.total());
        if (requestBody.truncated()) {
            runtime.metrics().truncatedBody();
        }
        if (responseBody.truncated()) {
            runtime.metrics().truncatedBody();
        }
        Instant endedAt = startedAt.plusNanos(endNanos - startNanos);
        runtime.recorder().offer(new CapturedCall(startedAt, endedAt, match.route().pipeline(),
                forwardedHead.method().name(), match.upstreamUrl(), recordedRequestHeaders,
                CapturedBody.of(requestBody), status, responseHeaders, CapturedBody.of(responseBody), incomplete));
        owner.exchangeDone();
    }

    private static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }
}
