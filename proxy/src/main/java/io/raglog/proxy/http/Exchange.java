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
 *
 * <p>On a route the proxy re-signs for AWS the request cannot stream: its signature covers the body's hash and goes in
 * the head. There the body is held whole (up to a cap), signed by {@link AwsSigning}, then sent; the response streams
 * as on every route.
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
    /** The whole request body on a route signed for AWS; null on every other route, whose requests stream. */
    private final BodyCapture signedBody;

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
        this.signedBody = match.route().awsSigV4() == null ? null : new BodyCapture(runtime.maxSignedBodyBytes());
    }

    void start() {
        runtime.metrics().callStarted();
        if (signedBody == null) {
            acquireUpstream();
        } else if (HttpUtil.getContentLength(forwardedHead, -1L) > runtime.maxSignedBodyBytes()) {
            refuseTooLarge();
        }
        // else a signed request waits for its whole body (requestContent) before anything goes upstream
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
        if (attempts == 1 && signedBody == null) {
            // Not flushed alone: the body (or the empty last piece) follows at once and goes out in the same write.
            channel.write(forwardedHead);
            while (!waiting.isEmpty()) {
                sendUpstream(waiting.poll());
            }
        } else {
            // A signed request, whole and signed by now, or a retry: sent from the copy, which holds all of the body
            // (checked before retrying).
            channel.write(new DefaultHttpRequest(HttpVersion.HTTP_1_1, forwardedHead.method(), forwardedHead.uri(),
                    forwardedHead.headers().copy()));
            markSent(channel.writeAndFlush(new DefaultLastHttpContent(Unpooled.wrappedBuffer(wholeBody()))));
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
        if (signedBody != null) {
            holdToSign(content, last);
        } else if (finished) {
            content.release();
        } else if (upstream == null) {
            waiting.add(content);
        } else {
            sendUpstream(content);
        }
    }

    private void holdToSign(HttpContent content, boolean last) {
        boolean answered = finished || responseStarted; // refused already, or the client left
        if (!answered) {
            signedBody.append(content.content());
        }
        content.release();
        if (answered) {
            return;
        }
        if (signedBody.truncated()) {
            refuseTooLarge();
        } else if (last) {
            runtime.signing().sign(match.route().awsSigV4(), forwardedHead.method(), match.upstreamUrl(),
                    forwardedHead.headers(), signedBody.kept())
                    .whenComplete((headers, failure) -> client.eventLoop().execute(() -> signed(headers, failure)));
        }
    }

    private void signed(HttpHeaders headers, Throwable failure) {
        if (finished || responseStarted) {
            return; // the client left while the request was being signed
        }
        if (failure != null) {
            Throwable cause = AwsSigning.cause(failure);
            // Counted and recorded as an upstream failure: the call could not go out, as with an unreachable upstream.
            runtime.metrics().upstreamFailure();
            answerItself(HttpResponseStatus.BAD_GATEWAY, cause instanceof AwsSigning.CredentialsUnavailable
                    ? cause.getMessage() : "cannot sign the request for AWS: " + cause.getMessage(),
                    "not signed for AWS");
            return;
        }
        forwardedHead.headers().set(headers);
        acquireUpstream();
    }

    private void refuseTooLarge() {
        runtime.metrics().tooLarge();
        answerItself(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "the request body is over the "
                + runtime.maxSignedBodyBytes() + " bytes a request signed for AWS may have (the proxy holds it whole to"
                + " sign it; limits.max_signed_body_bytes, --max-signed-body)", "request body over the signing cap");
    }

    /** The request body as it goes upstream again: from the signed copy, else from the recording's. */
    private byte[] wholeBody() {
        return signedBody != null ? signedBody.kept() : requestBody.kept();
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
            if (upstreamReused && requestComplete && (signedBody != null || !requestBody.truncated())
                    && attempts < MAX_ATTEMPTS) {
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
        answerItself(HttpResponseStatus.BAD_GATEWAY, reason, "upstream unreachable");
    }

    /** Answers the call without the upstream's response (none came, or the request never went), and records it. */
    private void answerItself(HttpResponseStatus answer, String reason, String incomplete) {
        byte[] body = ("raglog proxy: " + reason + "\n").getBytes(StandardCharsets.UTF_8);
        status = answer.code();
        responseHeaders = List.of(
                new AbstractMap.SimpleImmutableEntry<>("content-type", "text/plain; charset=utf-8"),
                new AbstractMap.SimpleImmutableEntry<>("content-length", Integer.toString(body.length)));
        responseBody.append(Unpooled.wrappedBuffer(body));
        responseStarted = true;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, answer,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        HttpUtil.setContentLength(response, body.length);
        client.writeAndFlush(response).addListener(f -> finish(incomplete));
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
