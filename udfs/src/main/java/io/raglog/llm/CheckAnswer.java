package io.raglog.llm;

import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.Fact;
import java.util.List;
import java.util.Map;

/**
 * One check's answer turned into numbers, whoever answered it (a model through {@link AnswerParser}, or the offline
 * judge).
 *
 * @param features by feature-list name; a share that is undefined (0 of 0) is absent, i.e. missing
 * @param findings short sentences for a verdict's evidence
 * @param evidenceFlow only for the evidence-flow check
 * @param facts what each finding states, as data ({@code facts.get(i)} for {@code findings.get(i)}, null where a
 *     finding is only words), or empty when the judge gave only words (a model's reply)
 */
public record CheckAnswer(Map<String, Double> features, List<String> findings, EvidenceFlow evidenceFlow,
        List<Fact> facts) {

    public CheckAnswer {
        facts = facts == null ? List.of() : facts;
        if (!facts.isEmpty() && facts.size() != findings.size()) {
            throw new IllegalArgumentException(facts.size() + " facts for " + findings.size() + " findings");
        }
    }

    public CheckAnswer(Map<String, Double> features, List<String> findings, EvidenceFlow evidenceFlow) {
        this(features, findings, evidenceFlow, List.of());
    }

    /** The fact of finding {@code i}, or null. */
    public Fact fact(int i) {
        return facts.isEmpty() ? null : facts.get(i);
    }
}
