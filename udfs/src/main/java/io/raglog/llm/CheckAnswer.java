package io.raglog.llm;

import io.raglog.schemas.EvidenceFlow;
import java.util.List;
import java.util.Map;

/**
 * One check's answer turned into numbers, whoever answered it (a model through {@link AnswerParser}, or the offline
 * judge).
 *
 * @param features by feature-list name; a share that is undefined (0 of 0) is absent, i.e. missing
 * @param findings short sentences for a verdict's evidence
 * @param evidenceFlow only for the evidence-flow check
 */
public record CheckAnswer(Map<String, Double> features, List<String> findings, EvidenceFlow evidenceFlow) {}
