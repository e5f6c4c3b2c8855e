package io.raglog.schemas;

import java.util.List;
import java.util.Map;

/**
 * The numbers the stage classifiers read for one run ({@code schemas/features.v1.json}), with the LLM usage that
 * produced them, the evidence-flow result and the checks' short findings (the scoring step turns them into a
 * verdict's evidence).
 *
 * @param featureListVersion the named, versioned feature list the vector follows (e.g. {@code raglog.checks/v1})
 * @param features every feature of that list by name, in list order; null means missing (the stage was absent or its
 *     check could not be answered), never a stand-in zero
 * @param evidenceFlow where each needed piece of information was found and what the answer did with it; null when
 *     that check was skipped or failed
 * @param findings short human-readable sentences, e.g. "rewrite dropped the date '2023'"
 */
public record RunFeatures(
        String schema,
        String runId,
        String pipeline,
        String question,
        String featureListVersion,
        Map<String, Double> features,
        LlmUsage llm,
        EvidenceFlow evidenceFlow,
        List<Finding> findings) {

    /** The {@code schema} value; {@link SchemaIds} predates this contract and is left untouched. */
    public static final String SCHEMA_V1 = "raglog.features/v1";

    /** The feature's value, or null when it is missing or not in the list. */
    public Double feature(String name) {
        return features == null ? null : features.get(name);
    }
}
