package io.raglog.llm;

import io.raglog.schemas.Run;
import java.util.concurrent.CompletableFuture;

/**
 * Answers the LLM checks of a run: a model behind an endpoint ({@link LlmJudge}) or the deterministic
 * {@link OfflineJudge}. The future always completes normally: a check that could not be answered is a failed
 * {@link CheckOutcome}, so one bad check never loses a run.
 */
public interface Judge extends AutoCloseable {

    /** Recorded wherever this judge's numbers go. */
    String id();

    CompletableFuture<CheckOutcome> check(LlmCheck check, Run run);

    @Override
    void close();
}
