package io.raglog.llm;

import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.Finding;
import io.raglog.schemas.LlmUsage;
import java.util.List;
import java.util.Map;

/** The LLM checks of one run, merged: features by name, findings, the evidence flow (or null) and the usage. */
public record LlmResult(Map<String, Double> features, List<Finding> findings, EvidenceFlow evidenceFlow,
        LlmUsage usage) {}
