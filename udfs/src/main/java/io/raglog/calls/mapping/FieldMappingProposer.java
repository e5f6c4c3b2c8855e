package io.raglog.calls.mapping;

import io.raglog.llm.ChatProvider;
import io.raglog.llm.ChatProviders;
import io.raglog.llm.ChatReply;
import io.raglog.llm.ChatRequest;
import io.raglog.llm.LlmCallException;
import io.raglog.llm.LlmSettings;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the configured LLM where an unknown endpoint keeps its stage's fields, and keeps the answer only if it holds
 * up against the call it was shown ({@link MappingValidator}).
 *
 * <p>One proposal is one question; what can fail on the way is handled in two places. The transport (429 with its
 * Retry-After, 5xx, timeouts, a cut-off reply) is retried here, like the LLM checks do, up to
 * {@code RAGLOG_LLM_RETRIES} times. A reply that is not a usable mapping (not JSON, a wrong pointer, an extra key) is
 * a {@link Proposal.Rejected} with the reason: asking again at once would cost the same and likely fail the same, so
 * the caller decides when to try again, per endpoint ({@link UnknownEndpointsFunction}).
 *
 * <p>{@link #propose} blocks its caller for at most {@code proposalTimeout}: it runs once per endpoint ever, and a
 * blocking call keeps the Flink function simple and its state consistent.
 */
public final class FieldMappingProposer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FieldMappingProposer.class);

    private final ChatProvider provider;
    private final LlmSettings llm;
    private final MappingSettings settings;
    private final MappingPrompt prompt;

    public FieldMappingProposer(ChatProvider provider, LlmSettings llm, MappingSettings settings) {
        this.provider = provider;
        this.llm = llm;
        this.settings = settings;
        this.prompt = new MappingPrompt(llm.maxOutputTokens());
    }

    /** @throws IllegalArgumentException for the offline judge: it has no model to ask, so it proposes nothing */
    public static FieldMappingProposer create(LlmSettings llm, MappingSettings settings) {
        return new FieldMappingProposer(ChatProviders.create(llm), llm, settings);
    }

    /**
     * @param sample a successful call of the endpoint, with JSON bodies
     * @param previousRejection why the endpoint's last proposal was refused, shown to the model; null on the first
     */
    public Proposal propose(EndpointKey key, CallEvent sample, String previousRejection) {
        ChatRequest request;
        try {
            request = prompt.request(key, sample, previousRejection, settings.sampleMaxChars());
        } catch (RuntimeException e) {
            return rejected(key, "cannot show the call to the model: " + e.getMessage(), 0);
        }
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<ChatReply> pending = attempt(request, 0, Duration.ZERO, calls);
        ChatReply reply;
        try {
            reply = pending.get(settings.proposalTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            return rejected(key, "no usable reply within " + settings.proposalTimeout().toMillis() + " ms",
                    calls.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pending.cancel(true);
            return rejected(key, "interrupted while waiting for the model", calls.get());
        } catch (ExecutionException e) {
            return rejected(key, "the model could not be asked: " + unwrap(e).getMessage(), calls.get());
        }
        try {
            FieldMapping mapping = ProposalParser.parse(reply.text());
            MappingValidator.validate(key, mapping, sample);
            LOG.info("field mapping for {} accepted after {} LLM call(s): {}", key, calls.get(), Json.write(mapping));
            return new Proposal.Accepted(mapping, calls.get());
        } catch (InvalidMappingException e) {
            return rejected(key, e.getMessage(), calls.get());
        }
    }

    private static Proposal rejected(EndpointKey key, String reason, int calls) {
        String r = MappingPrompt.cut(reason);
        LOG.warn("field mapping for {} rejected after {} LLM call(s): {}", key, calls, r);
        return new Proposal.Rejected(r, calls);
    }

    /** The transport's retries: scheduled, never slept, so a cancelled proposal stops sending. */
    private CompletableFuture<ChatReply> attempt(ChatRequest request, int attempt, Duration wait, AtomicInteger calls) {
        Executor later = wait.isZero() ? Runnable::run
                : CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS);
        return CompletableFuture.supplyAsync(() -> request, later)
                .thenCompose(r -> {
                    calls.incrementAndGet();
                    return provider.send(r);
                })
                .exceptionallyCompose(error -> {
                    LlmCallException e = unwrap(error);
                    if (e.retryable() && attempt < llm.retries()) {
                        return attempt(request, attempt + 1, backoff(attempt, e.retryAfter()), calls);
                    }
                    return CompletableFuture.failedFuture(e);
                });
    }

    /** Retry-After when the endpoint sent one, else exponential with jitter; never above the maximum back-off. */
    private Duration backoff(int attempt, Duration retryAfter) {
        long max = llm.maxBackoff().toMillis();
        if (retryAfter != null) {
            return Duration.ofMillis(Math.min(retryAfter.toMillis(), max));
        }
        long ceiling = Math.min(max, llm.backoff().toMillis() << Math.min(attempt, 20));
        return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }

    private static LlmCallException unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof LlmCallException known) {
            return known;
        }
        return new LlmCallException(LlmCallException.Kind.NETWORK, 0, null,
                e.getClass().getSimpleName() + ": " + e.getMessage(), null);
    }

    @Override
    public void close() {
        provider.close();
    }
}
