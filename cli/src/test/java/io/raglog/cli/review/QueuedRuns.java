package io.raglog.cli.review;

import io.raglog.schemas.EmbedStage;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.Passage;
import io.raglog.schemas.RerankStage;
import io.raglog.schemas.RetrieveStage;
import io.raglog.schemas.RewriteStage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.TokenUsage;
import io.raglog.schemas.Verdict;
import io.raglog.schemas.VerdictStages;
import io.raglog.sink.elasticsearch.BulkOperation;
import io.raglog.sink.elasticsearch.ElasticsearchEmitter;
import io.raglog.sink.elasticsearch.IndexTemplates;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A small debugging queue for the review tests: verdicts shaped as the scoring step writes them, indexed into
 * {@code raglog-faults} by the job's own emitter (the document and {@code _id} its Elasticsearch sink sends).
 */
final class QueuedRuns {

    static final String RETRIEVAL_AND_RERANK = "support-bot:run-retrieval";
    static final String GAP = "support-bot:run-gap";
    static final String GENERATOR = "billing-bot:run-generator";

    private QueuedRuns() {}

    private static StageVerdict sound(double p) {
        return new StageVerdict(true, p, 0.5, false, List.of(), null, new StageVerdict.ModelProbabilities(p, p, p));
    }

    private static StageVerdict flagged(double p, String evidence, String hint) {
        return new StageVerdict(true, p, 0.5, true, List.of(evidence), hint,
                new StageVerdict.ModelProbabilities(p, p, p));
    }

    private static LlmUsage usage() {
        return new LlmUsage(5, 0, 0, 0.0, false, List.of(), "offline-judge/v1");
    }

    /** Retrieval and the reranker flagged, the rest scored sound: the run the browser test reviews. */
    static Verdict retrievalAndRerank() {
        return new Verdict(Verdict.SCHEMA_V2, RETRIEVAL_AND_RERANK, "support-bot",
                "In what country is Normandy located?", "Normandy is in Belgium.",
                new VerdictStages(sound(0.04), sound(0.08),
                        flagged(0.83, "no retrieved passage mentions the name 'France' (rules and LLM judge)",
                                "Retrieve more passages (raise top_k) or add a keyword retriever beside the vectors."),
                        flagged(0.61, "the reranker kept 2 of 4 passages and dropped the one naming 'Normandy'",
                                "Raise the reranker's top_n."),
                        sound(0.31)),
                List.of(Stage.RETRIEVE, Stage.RERANK), false, new KnowledgeGap(false, 0.05, List.of(), null, false),
                usage(), "raglog-default@test", Instant.parse("2026-12-01T10:00:00Z"));
    }

    /** Only a knowledge gap: every stage sound, no reranker. */
    static Verdict gapOnly() {
        return new Verdict(Verdict.SCHEMA_V2, GAP, "support-bot", "What is the capital of Atlantis?",
                "I don't know.",
                new VerdictStages(StageVerdict.absent(), sound(0.03), sound(0.2), StageVerdict.absent(), sound(0.1)),
                List.of(), false, new KnowledgeGap(true, 0.9,
                        List.of("no passage mentions 'Atlantis'", "the answer refuses"),
                        "Add content about Atlantis.", false),
                usage(), "raglog-default@test", Instant.parse("2026-12-01T09:00:00Z"));
    }

    /** The generator flagged, on another pipeline, a month earlier. */
    static Verdict generatorOnly() {
        return new Verdict(Verdict.SCHEMA_V2, GENERATOR, "billing-bot", "When is the invoice due?",
                "The invoice is due in 1850.",
                new VerdictStages(StageVerdict.absent(), sound(0.02), sound(0.1), StageVerdict.absent(),
                        flagged(0.77, "the answer's date '1850' is found nowhere in the context (rules)",
                                "Tell the generator to answer only from the context.")),
                List.of(Stage.GENERATE), false, KnowledgeGap.undecided(), usage(), "raglog-default@test",
                Instant.parse("2026-11-01T08:00:00Z"));
    }

    static List<Verdict> all() {
        return List.of(retrievalAndRerank(), gapOnly(), generatorOnly());
    }

    /** The reviewed run as assembled: four retrieved, two kept by the reranker, both in the prompt. */
    static Run retrievalAndRerankRun() {
        Passage a = new Passage("p-1", "The Normans gave their name to Normandy, a region in France.", 0.71, 1);
        Passage b = new Passage("p-2", "Rollo was a Viking leader.", 0.64, 2);
        Passage c = new Passage("p-3", "Belgium borders France to the north.", 0.62, 3);
        Passage d = new Passage("p-4", "The Seine flows into the English Channel.", 0.55, 4);
        List<Passage> kept = List.of(new Passage("p-3", c.text(), 0.9, 1), new Passage("p-2", b.text(), 0.4, 2));
        return new Run(SchemaIds.RUN_V1, RETRIEVAL_AND_RERANK, "support-bot", null,
                "In what country is Normandy located?", Instant.parse("2026-12-01T09:59:58Z"),
                Instant.parse("2026-12-01T09:59:59Z"), false, null, List.of("c1", "c2", "c3"), List.of(),
                new RunStages(RewriteStage.absent(), EmbedStage.absent(),
                        new RetrieveStage(true, 12, List.of("c1"), "qdrant", null, 4, List.of(a, b, c, d), false),
                        new RerankStage(true, 30, List.of("c2"), "rerank-v3", "Normandy", List.of(a, b, c, d), kept, 2),
                        new GenerateStage(true, 400, List.of("c3"), "gpt-4o-mini", kept, "...",
                                "Normandy is in Belgium.", TokenUsage.UNKNOWN, false)));
    }

    /** Indexes the verdicts as the job's Elasticsearch sink does: same document, same {@code _id}, then refreshes. */
    static void index(ElasticsearchRest elasticsearch, List<Verdict> verdicts) {
        ElasticsearchEmitter<Verdict> emitter = ElasticsearchEmitter.json(IndexTemplates.FAULTS, Verdict::runId);
        List<BulkOperation> operations = new ArrayList<>();
        verdicts.forEach(v -> operations.add(emitter.emit(v)));
        for (BulkOperation op : operations) {
            elasticsearch.call("PUT", ElasticsearchRest.document(op.index(), op.id()),
                    new String(op.document(), StandardCharsets.UTF_8));
        }
        elasticsearch.call("POST", "/" + IndexTemplates.FAULTS + "/_refresh", null);
    }
}
