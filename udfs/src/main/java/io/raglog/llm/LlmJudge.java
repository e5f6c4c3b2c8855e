package io.raglog.llm;

import io.raglog.schemas.Run;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A model judges the checks: the versioned prompt, one call per check, the strict parser, and a bounded retry policy.
 * 429 waits what Retry-After says (capped by the maximum back-off); 5xx, timeouts, network errors and malformed replies
 * back off exponentially with jitter; other 4xx are not retried. Every attempt passes the client-side rate limit.
 * Waiting never blocks a thread: attempts are scheduled.
 */
public final class LlmJudge implements Judge {

    private static final Logger LOG = LoggerFactory.getLogger(LlmJudge.class);

    private final ChatProvider provider;
    private final LlmSettings settings;
    private final Prompts prompts;
    private final RateLimiter limiter;

    public LlmJudge(ChatProvider provider, LlmSettings settings) {
        this.provider = provider;
        this.settings = settings;
        this.prompts = new Prompts(settings.maxOutputTokens());
        this.limiter = new RateLimiter(settings.requestsPerSecond());
    }

    @Override
    public String id() {
        return provider.id();
    }

    /** Calls and tokens of one check across its attempts. */
    private static final class Tally {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicLong input = new AtomicLong();
        final AtomicLong output = new AtomicLong();
    }

    @Override
    public CompletableFuture<CheckOutcome> check(LlmCheck check, Run run) {
        return check(check, run, prompts.forRun(run));
    }

    /** The run's checks, their requests sharing the run's long texts ({@link Prompts.RunPrompts}). */
    @Override
    public List<CompletableFuture<CheckOutcome>> checks(List<LlmCheck> checks, Run run) {
        Prompts.RunPrompts runPrompts = prompts.forRun(run);
        List<CompletableFuture<CheckOutcome>> outcomes = new ArrayList<>(checks.size());
        for (LlmCheck check : checks) {
            outcomes.add(check(check, run, runPrompts));
        }
        return outcomes;
    }

    private CompletableFuture<CheckOutcome> check(LlmCheck check, Run run, Prompts.RunPrompts runPrompts) {
        ChatRequest request;
        try {
            request = runPrompts.request(check);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(
                    new CheckOutcome(check, null, 0, 0, 0, 0.0, "cannot build the prompt: " + e.getMessage()));
        }
        return attempt(check, run, request, 0, Duration.ZERO, new Tally());
    }

    private CompletableFuture<CheckOutcome> attempt(LlmCheck check, Run run, ChatRequest request, int attempt,
            Duration wait, Tally tally) {
        long delay = Math.max(wait.toMillis(), limiter.reserveMillis());
        Executor later = delay <= 0 ? Runnable::run : CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS);
        return CompletableFuture.supplyAsync(() -> request, later)
                .thenCompose(r -> {
                    tally.calls.incrementAndGet();
                    return provider.send(r);
                })
                .thenApply(reply -> {
                    tally.input.addAndGet(reply.inputTokens());
                    tally.output.addAndGet(reply.outputTokens());
                    try {
                        return done(check, AnswerParser.parse(check, reply.text()), tally, null);
                    } catch (BadReplyException e) {
                        throw new LlmCallException(LlmCallException.Kind.BAD_REPLY, 200, null,
                                "reply to " + request.promptId() + " rejected: " + e.getMessage(), null);
                    }
                })
                .exceptionallyCompose(error -> {
                    LlmCallException e = unwrap(error);
                    if (e.retryable() && attempt < settings.retries()) {
                        Duration next = backoff(attempt, e.retryAfter());
                        LOG.debug("run {} check {} attempt {} failed ({}), retrying in {} ms", run.runId(), check.id(),
                                attempt + 1, e.getMessage(), next.toMillis());
                        return attempt(check, run, request, attempt + 1, next, tally);
                    }
                    LOG.warn("run {} check {} unanswered after {} call(s): {}", run.runId(), check.id(),
                            tally.calls.get(), e.getMessage());
                    return CompletableFuture.completedFuture(done(check, null, tally, e.getMessage()));
                });
    }

    private CheckOutcome done(LlmCheck check, CheckAnswer answer, Tally tally, String error) {
        long in = tally.input.get();
        long out = tally.output.get();
        return new CheckOutcome(check, answer, tally.calls.get(), in, out, settings.cost(in, out), error);
    }

    private static LlmCallException unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof java.util.concurrent.CompletionException || e instanceof java.util.concurrent.ExecutionException)
                && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof LlmCallException known) {
            return known;
        }
        return new LlmCallException(LlmCallException.Kind.NETWORK, 0, null,
                e.getClass().getSimpleName() + ": " + e.getMessage(), null);
    }

    /** Retry-After when the endpoint gave one, else exponential, jittered between half and all of it; never above the maximum. */
    Duration backoff(int attempt, Duration retryAfter) {
        long max = settings.maxBackoff().toMillis();
        if (retryAfter != null) {
            return Duration.ofMillis(Math.min(retryAfter.toMillis(), max));
        }
        long ceiling = Math.min(max, settings.backoff().toMillis() << Math.min(attempt, 20));
        return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }

    @Override
    public void close() {
        provider.close();
    }
}
