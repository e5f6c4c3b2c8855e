package io.raglog.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import io.raglog.simulator.wire.Nodes;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts over a simulation, including the RAGLog finding our data must show: the share of faulty runs whose final
 * answer is still correct.
 */
public final class SimulationSummary {

    private long runs;
    private long faulty;
    private long faultyButCorrect;
    private long injected;
    private long injectedButCorrect;
    private long natural;
    private long naturalButCorrect;
    private long correct;
    private long faultyAnswerable;
    private long faultyAnswerableButCorrect;
    private long injectionsSkipped;
    private long calls;
    private long spans;
    private long otlpRequests;
    private long indexBatches;
    private long knowledgeGaps;
    private String split;
    private int poolAnswerable;
    private int poolUnanswerable;
    private int poolCycles;
    private final Map<String, Long> byProfile = new TreeMap<>();
    private final Map<String, Long> byFaultType = new TreeMap<>();
    private final Map<String, Long> faultyStages = new TreeMap<>();

    void add(Label label, boolean injectionSkipped) {
        runs++;
        byProfile.merge(label.profile(), 1L, Long::sum);
        if (label.answerCorrect()) {
            correct++;
        }
        if (label.knowledgeGap()) {
            knowledgeGaps++;
        }
        if (injectionSkipped) {
            injectionsSkipped++;
        }
        for (Stage stage : Stage.values()) {
            if (label.stages().faulty(stage)) {
                faultyStages.merge(stage.id(), 1L, Long::sum);
            }
        }
        if (!label.faulty()) {
            return;
        }
        faulty++;
        if (label.isAnswerable()) {
            faultyAnswerable++;
            faultyAnswerableButCorrect += label.answerCorrect() ? 1 : 0;
        }
        byFaultType.merge(label.faultType() + " (" + label.origin() + ")", 1L, Long::sum);
        boolean isInjected = Label.ORIGIN_INJECTED.equals(label.origin());
        if (isInjected) {
            injected++;
        } else {
            natural++;
        }
        if (label.answerCorrect()) {
            faultyButCorrect++;
            if (isInjected) {
                injectedButCorrect++;
            } else {
                naturalButCorrect++;
            }
        }
    }

    void addCalls(long n) {
        calls += n;
    }

    void setOtlp(long requests, long spanCount) {
        otlpRequests = requests;
        spans = spanCount;
    }

    /** Which questions were asked: the split, its pools' sizes, and how often a pool ran dry (questions repeated). */
    void setQuestionPool(String splitName, int answerable, int unanswerable, int cycles) {
        split = splitName;
        poolAnswerable = answerable;
        poolUnanswerable = unanswerable;
        poolCycles = cycles;
    }

    void addIndexBatch() {
        indexBatches++;
    }

    public long runs() {
        return runs;
    }

    public long faulty() {
        return faulty;
    }

    public long calls() {
        return calls;
    }

    public long spans() {
        return spans;
    }

    /** Share of faulty runs (any stage labeled 1) whose final answer is still correct. */
    public double faultyButCorrectShare() {
        return share(faultyButCorrect, faulty);
    }

    public double naturalFaultyButCorrectShare() {
        return share(naturalButCorrect, natural);
    }

    public double injectedFaultyButCorrectShare() {
        return share(injectedButCorrect, injected);
    }

    private static double share(long part, long whole) {
        return whole == 0 ? 0 : (double) part / whole;
    }

    public ObjectNode toJson() {
        ObjectNode out = Nodes.object().put("runs", runs).put("answer_correct", correct)
                .put("faulty_runs", faulty).put("faulty_share", round(share(faulty, runs)))
                .put("faulty_but_correct", faultyButCorrect)
                .put("faulty_but_correct_share", round(faultyButCorrectShare()))
                .put("faulty_answerable_but_correct_share", round(share(faultyAnswerableButCorrect, faultyAnswerable)))
                .put("injected_runs", injected)
                .put("injected_but_correct_share", round(injectedFaultyButCorrectShare()))
                .put("natural_faulty_runs", natural)
                .put("natural_but_correct_share", round(naturalFaultyButCorrectShare()))
                .put("injections_skipped", injectionsSkipped)
                .put("calls", calls).put("otlp_requests", otlpRequests).put("spans", spans)
                .put("index_batches", indexBatches).put("knowledge_gap_runs", knowledgeGaps);
        out.putObject("questions").put("split", split).put("answerable_pool", poolAnswerable)
                .put("unanswerable_pool", poolUnanswerable).put("pool_exhausted", poolCycles);
        ObjectNode profiles = out.putObject("runs_by_profile");
        byProfile.forEach(profiles::put);
        ObjectNode stages = out.putObject("faulty_stage_counts");
        faultyStages.forEach(stages::put);
        ObjectNode types = out.putObject("fault_types");
        byFaultType.forEach(types::put);
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    /** The lines printed at the end of a simulation. */
    public String describe() {
        return String.format(java.util.Locale.ROOT,
                "%d runs, %d calls, %d spans; %d faulty (%.1f%%: %d injected, %d natural);"
                        + " faulty but answered correctly: %.1f%% of faulty runs (injected %.1f%%, natural %.1f%%;"
                        + " answerable questions only %.1f%%)",
                runs, calls, spans, faulty, 100 * share(faulty, runs), injected, natural,
                100 * faultyButCorrectShare(), 100 * injectedFaultyButCorrectShare(),
                100 * naturalFaultyButCorrectShare(), 100 * share(faultyAnswerableButCorrect, faultyAnswerable))
                + String.format(java.util.Locale.ROOT, "%nquestions from %s (%d answerable, %d unanswerable)%s",
                        split == null ? "the whole corpus" : "split " + split, poolAnswerable, poolUnanswerable,
                        poolCycles == 0 ? ", none repeated"
                                : "; WARNING: a pool ran dry " + poolCycles + " time(s), questions repeat");
    }
}
