package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** RunFeatures as the checks write it must validate against {@code features.v1.json}, missing values included. */
class FeaturesSchemaTest {

    private static JsonSchema schema() throws Exception {
        try (InputStream in = FeaturesSchemaTest.class.getResourceAsStream("/schemas/features.v1.json")) {
            assertThat(in).isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }

    static RunFeatures sample(boolean degraded) {
        Map<String, Double> features = new LinkedHashMap<>();
        features.put("rewrite.lost_dates", 1.0);
        features.put("retrieve.top_similarity", 0.62);
        features.put("rerank.dropped_count", null); // the run had no reranker: missing, not zero
        features.put("generate.llm_unsupported_share", degraded ? null : 0.25);
        EvidenceFlow flow = degraded ? null : new EvidenceFlow(List.of(
                new EvidencePiece("operating cash flow in 2023", EvidenceLocation.ONLY_DROPPED, AnswerUse.OMITTED,
                        List.of("doc-7#2"))));
        return new RunFeatures(RunFeatures.SCHEMA_V1, "run-1", "support-bot", "What was the operating cash flow in 2023?",
                "raglog.checks/v1", features,
                new LlmUsage(degraded ? 6 : 5, 2400, 310, degraded ? null : 0.0021, degraded,
                        degraded ? List.of("support") : List.of(), "openai:gpt-4o-mini"),
                flow,
                List.of(new Finding(Stage.REWRITE, "rewrite.lost_terms", "rewrite dropped the date '2023'")));
    }

    private static Set<ValidationMessage> validate(Object record) throws Exception {
        return schema().validate(Json.MAPPER.valueToTree(record));
    }

    @Test
    void encodedRunFeaturesValidateAgainstTheirSchema() throws Exception {
        assertThat(validate(sample(false))).isEmpty();
        assertThat(validate(sample(true))).isEmpty();
    }

    @Test
    void missingFeaturesAreWrittenAsNullNotDropped() {
        JsonNode encoded = Json.MAPPER.valueToTree(sample(true));
        assertThat(encoded.get("features").has("rerank.dropped_count")).isTrue();
        assertThat(encoded.get("features").get("rerank.dropped_count").isNull()).isTrue();
        assertThat(encoded.get("evidence_flow").isNull()).isTrue();
    }

    @Test
    void schemaRejectsAFeatureThatIsNotANumber() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(sample(false));
        ((ObjectNode) encoded.get("features")).put("rewrite.lost_dates", "one");
        assertThat(schema().validate(encoded)).isNotEmpty();
    }

    @Test
    void runFeaturesRoundTripThroughJsonInFeatureOrder() {
        RunFeatures features = sample(false);
        RunFeatures back = Json.read(Json.write(features), RunFeatures.class);
        assertThat(back).isEqualTo(features);
        assertThat(back.features().keySet()).containsExactlyElementsOf(features.features().keySet());
        assertThat(Json.write(features)).contains("\"feature_list_version\"", "\"degraded_checks\"",
                "\"location\":\"only_dropped\"", "\"stage\":\"rewrite\"");
    }

    /** Findings with facts: what a verdict merges by. The fact is optional, so v1 features written before it read. */
    static RunFeatures withFacts() {
        RunFeatures f = sample(false);
        Fact japanese = Fact.of(Stage.RETRIEVE, FactKind.MISSING_TERM, Fact.term("name", "japanese"));
        return new RunFeatures(f.schema(), f.runId(), f.pipeline(), f.question(), f.featureListVersion(), f.features(),
                f.llm(), new EvidenceFlow(List.of(new EvidencePiece("the name 'Japanese'", EvidenceLocation.NOWHERE,
                        AnswerUse.OMITTED, List.of(), japanese.subject()))),
                List.of(Finding.of("retrieve.terms", japanese, "no retrieved passage mentions the name 'Japanese'"),
                        Finding.of("llm.evidence_flow", japanese.withPassages(List.of("doc-7#2")),
                                "the name 'Japanese' was retrieved (doc-7#2) but never reached the generator"),
                        new Finding(Stage.GENERATE, "llm.support", "a model's own words")));
    }

    @Test
    void findingsWithFactsValidateAndRoundTrip() throws Exception {
        RunFeatures features = withFacts();

        assertThat(validate(features)).isEmpty();
        assertThat(Json.read(Json.write(features), RunFeatures.class)).isEqualTo(features);
        assertThat(Json.write(features)).contains("\"kind\":\"missing_term\"", "\"subject\":\"name:japanese\"");
    }

    @Test
    void featuresWrittenBeforeFactsStillRead() {
        ObjectNode old = Json.MAPPER.valueToTree(withFacts());
        ((ObjectNode) old.get("findings").get(0)).remove("fact");
        ((ObjectNode) old.get("evidence_flow").get("pieces").get(0)).remove("subject");

        RunFeatures back = Json.MAPPER.convertValue(old, RunFeatures.class);

        assertThat(back.findings().get(0).fact()).isNull();
        assertThat(back.findings().get(0).text()).isEqualTo("no retrieved passage mentions the name 'Japanese'");
        assertThat(back.evidenceFlow().pieces().get(0).subject()).isNull();
    }

    @Test
    void schemaRejectsAFactOfUnknownKind() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(withFacts());
        ((ObjectNode) encoded.get("findings").get(0).get("fact")).put("kind", "vibes");
        assertThat(schema().validate(encoded)).isNotEmpty();
    }

    @Test
    void schemaNamesEveryFactKindAndStageTheCodeWrites() throws Exception {
        JsonNode fact;
        try (InputStream in = FeaturesSchemaTest.class.getResourceAsStream("/schemas/features.v1.json")) {
            fact = Json.MAPPER.readTree(in).at("/$defs/fact");
        }
        assertThat(fact.isMissingNode()).as("the schema defines a fact").isFalse();
        List<String> kinds = new ArrayList<>();
        fact.at("/properties/kind/enum").forEach(k -> kinds.add(k.asText()));
        List<String> stages = new ArrayList<>();
        fact.at("/properties/stage/enum").forEach(k -> stages.add(k.asText()));
        assertThat(kinds).containsExactlyElementsOf(Arrays.stream(FactKind.values()).map(FactKind::id).toList());
        assertThat(stages).containsExactlyElementsOf(Arrays.stream(Stage.values()).map(Stage::id).toList());
    }
}
