package io.raglog.score;

import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Set;

/**
 * RAGLog's one fixed rule after the classifiers: retrieval is flagged, but the evidence-flow check finds the needed
 * information only in passages the reranker dropped, so retrieval did its job and the reranker lost it: clear the
 * retrieval flag and flag the reranker.
 *
 * <p>"Only in dropped passages" is read strictly: at least one needed piece is {@code only_dropped} and none is
 * {@code nowhere}. A piece found nowhere means retrieval did miss something, so its flag stands. The rule needs a
 * reranker in the run (there is no one to blame otherwise) and an evidence flow (the check may have failed: then
 * the classifiers' decision stands). A piece found only in passages that the reranker handed on and context assembly
 * then cut or dropped is not the reranker's loss: at least one {@code only_dropped} piece must lie outside them (the
 * assembly's losses are {@link ContextAssemblyRule}'s to weigh).
 */
public final class ReassignmentRule {

    private ReassignmentRule() {}

    /** The stages flagged after the rule, and whether it fired. */
    public record Outcome(Set<Stage> flagged, boolean fired) {}

    /**
     * @param assemblyLostShare the share of the flow's pieces found only in passages handed on to the prompt and then
     *     cut or dropped by context assembly (feature {@code assemble.flow_lost_share}); null when the run shows no
     *     context assembly
     */
    public static Outcome apply(Set<Stage> flaggedByModels, Set<Stage> present, EvidenceFlow flow,
            Double assemblyLostShare) {
        Set<Stage> flagged = flaggedByModels.isEmpty() ? EnumSet.noneOf(Stage.class) : EnumSet.copyOf(flaggedByModels);
        if (!fires(flagged, present, flow, assemblyLostShare)) {
            return new Outcome(flagged, false);
        }
        flagged.remove(Stage.RETRIEVE);
        flagged.add(Stage.RERANK);
        return new Outcome(flagged, true);
    }

    static boolean fires(Set<Stage> flagged, Set<Stage> present, EvidenceFlow flow, Double assemblyLostShare) {
        if (!flagged.contains(Stage.RETRIEVE) || !present.contains(Stage.RERANK) || flow == null
                || flow.pieces() == null) {
            return false;
        }
        int onlyDropped = 0;
        for (EvidencePiece piece : flow.pieces()) {
            if (piece.location() == EvidenceLocation.NOWHERE) {
                return false;
            }
            onlyDropped += piece.location() == EvidenceLocation.ONLY_DROPPED ? 1 : 0;
        }
        long lostByAssembly = assemblyLostShare == null ? 0 : Math.round(assemblyLostShare * flow.pieces().size());
        return onlyDropped > lostByAssembly;
    }
}
