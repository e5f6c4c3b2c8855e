package io.raglog.llm;

import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.List;
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

    /** The run's checks, in their order: each on its own unless a judge has something to share between them. */
    default List<CompletableFuture<CheckOutcome>> checks(List<LlmCheck> checks, Run run) {
        List<CompletableFuture<CheckOutcome>> outcomes = new ArrayList<>(checks.size());
        for (LlmCheck check : checks) {
            outcomes.add(check(check, run));
        }
        return outcomes;
    }

    @Override
    void close();
}
