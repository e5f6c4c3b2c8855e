package io.raglog.llm;

import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.Fact;
import io.raglog.schemas.Finding;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Issues a run's LLM checks together (up to five calls in flight at once, so a run takes about one call's latency)
 * and merges what came back. A check that failed leaves its features missing and marks the run degraded.
 */
public final class LlmChecks {

    private final Judge judge;
    private final boolean economy;

    public LlmChecks(Judge judge, boolean economy) {
        this.judge = judge;
        this.economy = economy;
    }

    public String judgeId() {
        return judge.id();
    }

    public CompletableFuture<LlmResult> run(Run run) {
        List<LlmCheck> checks = LlmCheck.forRun(run, economy);
        List<CompletableFuture<CheckOutcome>> asked = judge.checks(checks, run);
        List<CompletableFuture<CheckOutcome>> pending = new ArrayList<>(checks.size());
        for (int i = 0; i < checks.size(); i++) {
            LlmCheck check = checks.get(i);
            pending.add(asked.get(i).exceptionally(e ->
                    new CheckOutcome(check, null, 0, 0, 0, null, "judge failed: " + e.getMessage())));
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> merge(pending.stream().map(CompletableFuture::join).toList()));
    }

    /**
     * What a run gets when its LLM checks did not finish in time (the operator's timeout): all of them degraded. Calls
     * already made are not known here, so the cost is reported unknown rather than zero.
     */
    public LlmResult unanswered(Run run) {
        List<CheckOutcome> none = LlmCheck.forRun(run, economy).stream()
                .map(c -> new CheckOutcome(c, null, 0, 0, 0, null, "timed out")).toList();
        return merge(none);
    }

    /**
     * What a run gets when the tier gate decided it from the cheap checks: no call, no LLM feature, nothing degraded
     * (nothing was asked), and the usage says the tier skipped it.
     */
    public LlmResult skipped() {
        return new LlmResult(Map.of(), List.of(), null,
                new LlmUsage(0, 0, 0, 0.0, false, List.of(), judge.id(), LlmUsage.TIER_SKIPPED));
    }

    LlmResult merge(List<CheckOutcome> outcomes) {
        Map<String, Double> features = new LinkedHashMap<>();
        List<Finding> findings = new ArrayList<>();
        EvidenceFlow flow = null;
        List<String> degraded = new ArrayList<>();
        int calls = 0;
        long in = 0;
        long out = 0;
        Double cost = 0.0;
        for (CheckOutcome o : outcomes) {
            calls += o.calls();
            in += o.inputTokens();
            out += o.outputTokens();
            cost = cost == null || o.costUsd() == null ? null : cost + o.costUsd();
            if (o.failed()) {
                degraded.add(o.check().id());
                continue;
            }
            features.putAll(o.answer().features());
            List<String> texts = o.answer().findings();
            for (int i = 0; i < texts.size(); i++) {
                // a fact names its own stage: the evidence-flow check speaks about retrieval and the reranker too
                Fact fact = o.answer().fact(i);
                findings.add(new Finding(fact == null ? o.check().stage() : fact.stage(), "llm." + o.check().id(),
                        texts.get(i), fact));
            }
            if (o.answer().evidenceFlow() != null) {
                flow = o.answer().evidenceFlow();
            }
        }
        return new LlmResult(features, findings, flow,
                new LlmUsage(calls, in, out, cost, !degraded.isEmpty(), degraded, judge.id()));
    }
}
