package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;

import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.Passage;
import io.raglog.schemas.RerankStage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The reranker's output against its input: what it dropped, how it reordered, whether it invented ids. */
final class RerankRules {

    static final String CHECK = "rerank.order";

    private RerankRules() {}

    static void apply(Run run, FeatureVector v, List<Finding> findings) {
        if (!run.has(Stage.RERANK)) {
            return;
        }
        RerankStage rerank = run.stages().rerank();
        List<Passage> input = RunTexts.nonNull(rerank.input());
        List<Passage> output = RunTexts.kept(run);
        Set<String> outIds = RunTexts.ids(output);
        Map<String, Integer> inputPosition = new HashMap<>();
        for (int i = 0; i < input.size(); i++) {
            inputPosition.putIfAbsent(input.get(i).id(), i);
        }
        // loops rather than streams: the rule checks run per run on the checks task (issue #27)
        long dropped = 0;
        for (String id : inputPosition.keySet()) { // the input's distinct ids
            if (!outIds.contains(id)) {
                dropped++;
            }
        }
        List<String> unknown = new ArrayList<>();
        for (String id : outIds) {
            if (!inputPosition.containsKey(id)) {
                unknown.add(id);
            }
        }
        v.put(RERANK_INPUT_COUNT, input.size()).put(RERANK_OUTPUT_COUNT, output.size())
                .put(RERANK_DROPPED_COUNT, dropped).put(RERANK_UNKNOWN_IDS, unknown.size());
        if (!unknown.isEmpty()) {
            findings.add(Finding.of(CHECK, Fact.of(Stage.RERANK, FactKind.UNKNOWN_PASSAGES, "").withPassages(unknown),
                    "the reranker returned " + unknown.size()
                    + " passage(s) it was not given"));
        }
        if (!input.isEmpty()) {
            boolean topDropped = !outIds.contains(input.get(0).id());
            v.put(RERANK_INPUT_TOP_DROPPED, topDropped);
        }
        List<Passage> known = new ArrayList<>(output.size());
        for (Passage p : output) {
            if (inputPosition.containsKey(p.id())) {
                known.add(p);
            }
        }
        double[] outputOrder = new double[known.size()];
        double[] inputOrder = new double[known.size()];
        for (int i = 0; i < known.size(); i++) {
            outputOrder[i] = i;
            inputOrder[i] = inputPosition.get(known.get(i).id());
        }
        v.put(RERANK_ORDER_VS_INPUT, Ranks.kendallTau(outputOrder, inputOrder));
        String question = RunTexts.question(run);
        if (question != null) {
            TextIndex in = TextIndex.ofPassages(RunTexts.texts(input));
            TextIndex out = TextIndex.ofPassages(RunTexts.texts(output));
            List<KeyTerm> lost = new ArrayList<>();
            for (KeyTerm t : Terms.keyTerms(question)) {
                if (in.contains(t) && !out.contains(t)) {
                    lost.add(t);
                    findings.add(Finding.of(CHECK, Fact.of(Stage.RERANK, FactKind.MISSING_TERM, t.subject()),
                            "the reranker dropped every passage that mentions the " + t));
                }
            }
            v.put(RERANK_KEY_TERMS_LOST, lost.size());
            AnswerSentences answers = AnswerSentences.forQuestion(question);
            List<Passage> neverUsed = RunTexts.dropped(run);
            if (answers.hasQuestion() && !neverUsed.isEmpty()) {
                double droppedBest = answers.bestIn(neverUsed);
                double keptBest = answers.bestIn(run.has(Stage.GENERATE) ? RunTexts.context(run) : output);
                v.put(RERANK_DROPPED_ANSWER_GAP, droppedBest - keptBest);
                // the finding names only what the reranker itself cut: a passage it kept that the budget then
                // dropped is assembly's to report (AssembleRules), with the knob that lost it
                List<String> answering = droppedBest >= AnswerSentences.ANSWERS && keptBest < AnswerSentences.ANSWERS
                        ? answers.answering(neverUsed).stream().filter(id -> !outIds.contains(id)).toList()
                        : List.of();
                if (!answering.isEmpty()) {
                    findings.add(Finding.of(CHECK,
                            Fact.of(Stage.RERANK, FactKind.MISSING_ANSWER, Fact.ANSWER).withPassages(answering),
                            "the passage whose sentence answers the question (" + String.join(", ", answering)
                                    + ") never reached the generator; the reranker kept " + output.size()));
                }
            }
        }
    }
}
