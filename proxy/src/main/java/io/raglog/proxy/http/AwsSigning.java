package io.raglog.proxy.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.raglog.proxy.AwsSigV4;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * Re-signs a request with AWS Signature Version 4 as it goes upstream, with the proxy's own credentials: the signing
 * itself is the AWS SDK's ({@link AwsV4HttpSigner}), this class only decides what is signed and where the credentials
 * come from.
 *
 * <p>Credentials are resolved per request through the provider, which caches them and refreshes temporary ones before
 * they expire. Resolving can block (the first call to instance metadata or STS, a refresh), so it runs on a small pool
 * of its own, never on an event loop. Nothing here logs or returns a credential: a failure is logged with the
 * provider's own explanation, which names where it looked, not what it found.
 */
public final class AwsSigning implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AwsSigning.class);

    /**
     * What a client signs its own request with. The client signed for the proxy's host and path, so these are wrong
     * upstream; and a client may sign with any credentials or none once the proxy signs.
     */
    static final Set<String> CLIENT_SIGNATURE_HEADERS = Set.of("authorization", "x-amz-date", "x-amz-security-token",
            "x-amz-content-sha256");

    /** A credentials failure is logged at most this often: every signed call fails the same way until it is fixed. */
    private static final Duration WARN_INTERVAL = Duration.ofMinutes(1);

    private final AwsCredentialsProvider credentials;
    private final boolean ownsCredentials;
    private final Clock clock;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
    private final ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "raglog-proxy-aws-signing");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong lastWarnNanos = new AtomicLong(System.nanoTime() - WARN_INTERVAL.toNanos() - 1);

    /** Signs with {@code credentials} at {@code clock}'s time: tests fix both. */
    public AwsSigning(AwsCredentialsProvider credentials, Clock clock) {
        this(credentials, false, clock);
    }

    private AwsSigning(AwsCredentialsProvider credentials, boolean ownsCredentials, Clock clock) {
        this.credentials = credentials;
        this.ownsCredentials = ownsCredentials;
        this.clock = clock;
    }

    /** With {@code credentials}, or the SDK's default chain when null (then closed with this). */
    public static AwsSigning create(AwsCredentialsProvider credentials) {
        return credentials != null ? new AwsSigning(credentials, false, Clock.systemUTC())
                : new AwsSigning(DefaultCredentialsProvider.builder().build(), true, Clock.systemUTC());
    }

    /** The credentials could not be had: the call is answered 502 with {@link #getMessage()}, a fixed text. */
    public static final class CredentialsUnavailable extends RuntimeException {
        CredentialsUnavailable(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Signs a request as it will be sent upstream.
     *
     * @param upstreamUrl the URL the request goes to, path and query exactly as forwarded
     * @param forwarded the headers that will be sent, Host (the upstream's) included; the client's signature headers
     *     among them are dropped
     * @param body the whole body
     * @return the headers to send instead: {@code forwarded} without the client's signature, with the proxy's
     *     Authorization, X-Amz-Date, X-Amz-Content-Sha256 (and X-Amz-Security-Token for temporary credentials);
     *     completed on a signing thread, failed with {@link CredentialsUnavailable} when there are no credentials
     */
    public CompletableFuture<HttpHeaders> sign(AwsSigV4 spec, HttpMethod method, String upstreamUrl,
            HttpHeaders forwarded, byte[] body) {
        HttpHeaders unsigned = new DefaultHttpHeaders();
        for (Map.Entry<String, String> h : forwarded) {
            if (!CLIENT_SIGNATURE_HEADERS.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                unsigned.add(h.getKey(), h.getValue());
            }
        }
        SdkHttpRequest.Builder request;
        try {
            // uri() keeps the path as sent (percent-encoded); the signer encodes it once more for the canonical
            // request, as AWS does on its side for every service but S3.
            request = SdkHttpRequest.builder().uri(URI.create(upstreamUrl)).method(SdkHttpMethod.fromValue(
                    method.name()));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(
                    "the request target is not a URL AWS SigV4 can sign"));
        }
        for (Map.Entry<String, String> h : unsigned) {
            request.appendHeader(h.getKey(), h.getValue());
        }
        SdkHttpRequest toSign = request.build();
        return CompletableFuture.supplyAsync(() -> {
            SignedRequest signed = signer.sign(r -> r.identity(resolve())
                    .request(toSign)
                    .payload(ContentStreamProvider.fromByteArrayUnsafe(body))
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, spec.service())
                    .putProperty(AwsV4HttpSigner.REGION_NAME, spec.region())
                    // The body's SHA-256 is signed (and sent as x-amz-content-sha256), over https too, where the
                    // signer would otherwise send UNSIGNED-PAYLOAD, which only some services take.
                    .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, true)
                    .putProperty(HttpSigner.SIGNING_CLOCK, clock));
            // What the signer added (Authorization, X-Amz-Date, X-Amz-Content-Sha256, X-Amz-Security-Token) goes on
            // the forwarded headers, which keep their order and case: whatever was signed is sent exactly so.
            HttpHeaders out = unsigned.copy();
            for (Map.Entry<String, List<String>> h : signed.request().headers().entrySet()) {
                if (!h.getValue().equals(out.getAll(h.getKey()))) {
                    out.set(h.getKey(), h.getValue());
                }
            }
            return out;
        }, executor);
    }

    private AwsCredentialsIdentity resolve() {
        try {
            return credentials.resolveCredentials();
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            long last = lastWarnNanos.get();
            if (now - last > WARN_INTERVAL.toNanos() && lastWarnNanos.compareAndSet(last, now)) {
                LOG.warn("AWS SigV4 routes answer 502 until the proxy has credentials ({}): {}",
                        e.getClass().getSimpleName(), e.getMessage());
            }
            // The client is told what is missing, not the provider's text: that stays in the proxy's log.
            throw new CredentialsUnavailable("the proxy has no AWS credentials to sign the request with"
                    + " (its log says where it looked)");
        }
    }

    /** Tries the credentials once in the background and logs the outcome, so missing ones show at start. */
    public void checkCredentialsInBackground() {
        CompletableFuture.runAsync(() -> {
            AwsCredentialsIdentity identity = resolve();
            LOG.info("AWS SigV4 routes are signed with the proxy's own AWS credentials ({})",
                    identity.expirationTime().map(t -> "expiring " + t + ", refreshed before").orElse("no expiry"));
        }, executor).exceptionally(e -> null); // resolve() logged it
    }

    /** The failure of a {@link #sign} future, unwrapped. */
    static Throwable cause(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    @Override
    public void close() {
        executor.shutdownNow();
        if (ownsCredentials && credentials instanceof SdkAutoCloseable closeable) {
            closeable.close();
        }
    }
}
