package io.raglog.llm;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The AWS credentials the judge signs with, as the credentials provider last gave them, renewed in the background.
 *
 * <p>Why not ask the provider for every request, as an SDK client does: the judge's requests go out from whichever
 * thread sends them, async-http-client's event loop among them (a retry goes out from the thread that saw the
 * failure), and the provider may block: its first answer (STS for web identity, the EKS Pod Identity agent, instance
 * metadata) and every refresh of temporary credentials are HTTP calls. So the provider is asked here, once at start,
 * and then on a thread of its own: every minute, and sooner as the held credentials near their expiry (half the time
 * they have left), which lets the provider's own cache renew them as the SDK's clients would see it do. A request only
 * reads what is held.
 *
 * <p>A failed renewal keeps the held credentials while they last and is tried again; once they have expired, requests
 * fail at once with a fixed message, and the log says what the provider said. Nothing here logs or prints a
 * credential: the SDK's credentials print their key id alone, and its failures say where it looked, not what it found.
 */
final class HeldAwsCredentials implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HeldAwsCredentials.class);

    static final Duration RENEW_EVERY = Duration.ofMinutes(1);
    static final Duration RETRY_EVERY = Duration.ofSeconds(10);
    private static final Duration SOONEST = Duration.ofSeconds(1);

    private final AwsCredentialsProvider provider;
    private final boolean ownsProvider;
    private final Clock clock;
    private final ScheduledExecutorService renewer;
    private volatile AwsCredentialsIdentity held;

    private HeldAwsCredentials(AwsCredentialsProvider provider, boolean ownsProvider, Clock clock,
            AwsCredentialsIdentity first) {
        this.provider = provider;
        this.ownsProvider = ownsProvider;
        this.clock = clock;
        this.held = first;
        this.renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "raglog-llm-aws-credentials");
            t.setDaemon(true);
            return t;
        });
        schedule(untilRenewal(first, RENEW_EVERY));
    }

    /**
     * Asks the provider once, on this thread, and holds its answer.
     *
     * @param ownsProvider closed with this (the default chain made for the judge), or left to its owner
     * @throws IllegalStateException naming where credentials can come from, when the provider has none
     */
    static HeldAwsCredentials resolve(AwsCredentialsProvider provider, boolean ownsProvider, Clock clock) {
        AwsCredentialsIdentity first;
        try {
            first = provider.resolveCredentials();
        } catch (RuntimeException e) {
            if (ownsProvider && provider instanceof SdkAutoCloseable closeable) {
                closeable.close();
            }
            throw new IllegalStateException("provider bedrock needs a Bedrock API key (" + LlmSettings.API_KEY
                    + " or " + LlmSettings.API_KEY_FILE + ") or AWS credentials (environment, profile, web identity,"
                    + " EKS Pod Identity or instance role), and has neither: " + e.getMessage(), e);
        }
        return new HeldAwsCredentials(provider, ownsProvider, clock, first);
    }

    /**
     * The credentials to sign with, without waiting for anything.
     *
     * @throws LlmCallException when the held ones have expired and could not be renewed
     */
    AwsCredentialsIdentity current() {
        AwsCredentialsIdentity now = held;
        if (now.expirationTime().map(clock.instant()::isAfter).orElse(false)) {
            throw new LlmCallException(LlmCallException.Kind.CLIENT_ERROR, 0, null,
                    "the AWS credentials expired and could not be renewed (the log says why)", null);
        }
        return now;
    }

    /** The text with the held secret key and session token masked, should an error page echo them. */
    String redact(String text) {
        AwsCredentialsIdentity now = held;
        String out = masked(text, now.secretAccessKey());
        return now instanceof AwsSessionCredentialsIdentity session ? masked(out, session.sessionToken()) : out;
    }

    private static String masked(String text, String secret) {
        Secret s = Secret.of(secret);
        return s == null ? text : s.redact(text);
    }

    private void renew() {
        try {
            held = provider.resolveCredentials();
            schedule(untilRenewal(held, RENEW_EVERY));
        } catch (RuntimeException e) {
            LOG.warn("the AWS credentials the LLM judge signs with could not be renewed ({}): {}",
                    e.getClass().getSimpleName(), e.getMessage());
            schedule(untilRenewal(held, RETRY_EVERY));
        }
    }

    /**
     * {@code interval}, or half the time the credentials have left when that is sooner (at least a second); expired
     * ones, {@code interval}: there is nothing left to save, and the provider is asked at the usual pace.
     */
    private Duration untilRenewal(AwsCredentialsIdentity credentials, Duration interval) {
        Instant now = clock.instant();
        Duration left = credentials.expirationTime().map(expiry -> Duration.between(now, expiry)).orElse(null);
        if (left == null || left.isNegative() || left.isZero()) {
            return interval;
        }
        Duration half = left.dividedBy(2);
        if (half.compareTo(interval) >= 0) {
            return interval;
        }
        return half.compareTo(SOONEST) < 0 ? SOONEST : half;
    }

    private void schedule(Duration wait) {
        if (!renewer.isShutdown()) {
            renewer.schedule(this::renew, wait.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        renewer.shutdownNow();
        if (ownsProvider && provider instanceof SdkAutoCloseable closeable) {
            closeable.close();
        }
    }

    @Override
    public String toString() {
        return "AWS credentials, renewed every " + RENEW_EVERY.toSeconds() + " s or sooner";
    }
}
