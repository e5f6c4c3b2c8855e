package io.raglog.checks;

import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.Finding;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Joins the cheap checks' and the LLM checks' results into the run's full, named feature vector. */
public final class FeatureAssembler {

    private FeatureAssembler() {}

    public static RunFeatures assemble(CheckedRun cheap, Map<String, Double> llmFeatures, List<Finding> llmFindings,
            EvidenceFlow evidenceFlow, LlmUsage usage) {
        FeatureVector vector = FeatureVector.of(cheap.features());
        llmFeatures.forEach(vector::put);
        AssembleRules.fromEvidenceFlow(cheap.run(), evidenceFlow, vector);
        List<Finding> findings = new ArrayList<>(cheap.findings());
        findings.addAll(llmFindings);
        return new RunFeatures(RunFeatures.SCHEMA_V1, cheap.run().runId(), cheap.run().pipeline(),
                RunTexts.question(cheap.run()), FeatureList.VERSION, vector.asMap(), usage, evidenceFlow,
                List.copyOf(findings));
    }
}
