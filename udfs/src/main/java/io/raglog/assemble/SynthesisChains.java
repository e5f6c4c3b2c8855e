package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.SynthesisSteps;
import io.raglog.schemas.HttpError;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * An answer synthesised in several generator calls (LlamaIndex's refine and tree summary, LangChain's refine): each
 * later step carries an earlier step's answer ({@link CallSignals#continues}). The run closes on the last step, and its
 * generator is all of them: what reached the model is every step's context, its answer the last. (LangChain's
 * map-reduce is not one: its map steps extract, as a compressor does, and are no stage; its combining call answers.)
 */
final class SynthesisChains {

    private SynthesisChains() {}

    /** Whether a later open generator call carries {@code step}'s answer on: then {@code step} does not close a run. */
    static boolean continued(CallSignals step, List<CallSignals> open) {
        if (step.stage != Stage.GENERATE) {
            return false;
        }
        for (CallSignals later : open) {
            if (later != step && later.continues(step)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The steps of the answer {@code last} ends, in the order they started, {@code last} included: the step each refine
     * step refines (of two with the same answer, the one that ended last: another run asking the same question may
     * have answered alike), and every step a summary summarises.
     */
    static List<CallSignals> stepsBefore(CallSignals last, List<CallSignals> open) {
        if (!continuesAny(last, open)) {
            return List.of(last); // the answer in one call, as most are: no list grown for it
        }
        List<CallSignals> steps = new ArrayList<>();
        steps.add(last);
        for (int i = 0; i < steps.size(); i++) {
            CallSignals step = steps.get(i);
            CallSignals refined = null;
            for (CallSignals earlier : open) {
                if (steps.contains(earlier)) {
                    continue;
                }
                if (step.refines(earlier) && (refined == null || earlier.endMs > refined.endMs)) {
                    refined = earlier;
                } else if (step.summarises(earlier)) {
                    steps.add(earlier);
                }
            }
            if (refined != null) {
                steps.add(refined);
            }
        }
        if (steps.size() > 1) {
            steps.sort(Comparator.comparingLong((CallSignals s) -> s.startMs).thenComparing(CallSignals::eventId));
        }
        return steps;
    }

    private static boolean continuesAny(CallSignals step, List<CallSignals> open) {
        for (CallSignals earlier : open) {
            if (earlier != step && step.continues(earlier)) {
                return true;
            }
        }
        return false;
    }

    /** A generator call that carries an earlier answer to refine: a later step of an answer made in several calls. */
    static boolean isStep(ClassifiedCall call) {
        return call.stage() == Stage.GENERATE && !call.event().failed() && call.detail() instanceof ChatDetail chat
                && SynthesisSteps.priorAnswer(chat) != null;
    }

    /** How many generator calls that succeeded made the run's answer: more than one for an answer made in steps. */
    static int steps(Run run) {
        int failed = 0;
        for (HttpError e : run.httpErrors()) {
            failed += e.stage() == Stage.GENERATE ? 1 : 0;
        }
        return run.stages().generate().callIds().size() - failed;
    }

    /**
     * Why a refine step whose first step's run had closed before it arrived leaves alone, as an orphan: the run it
     * belongs to was checked on the answer before it.
     */
    static final String LATE_STEP_REASON = IncompleteRuns.ORPHAN_PREFIX + "a later step of an answer synthesised in "
            + "several calls (it refines an earlier call's answer), which came after that answer's run had closed";
}
