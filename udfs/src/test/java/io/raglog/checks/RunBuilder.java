package io.raglog.checks;

import io.raglog.schemas.AssembleStage;
import io.raglog.schemas.EmbedStage;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.RerankStage;
import io.raglog.schemas.RetrieveStage;
import io.raglog.schemas.RewriteStage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.TokenUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Crafted runs for the checks' tests: a healthy five-stage run about a company's 2023 cash flow, then faults. */
public final class RunBuilder {

    public static final Passage CASH_2023 = new Passage("doc-7#2",
            "Acme Corp reported operating cash flow of $4.1 billion in 2023, up from $3.2 billion in 2022.", 0.83, 1);
    public static final Passage REVENUE_2022 = new Passage("doc-3#0",
            "Acme Corp revenue grew 12% in 2022, driven by its cloud segment.", 0.78, 2);
    public static final Passage WEATHER = new Passage("doc-9#4",
            "The weather in Lisbon is mild in spring, with occasional rain showers.", 0.41, 3);
    public static final Passage CAPEX_2023 = new Passage("doc-7#3",
            "Capital expenditure at Acme Corp reached $1.3 billion in 2023.", 0.80, 4);

    /** The opening sentence of {@link #CASH_AFTER_PUMPS}: about the company, not its cash flow. */
    public static final String PUMPS = "Acme Corp makes industrial pumps at plants in Ohio and Texas.";
    public static final Passage CASH_AFTER_PUMPS = new Passage("doc-7#1",
            PUMPS + " Acme Corp reported operating cash flow of $4.1 billion in 2023.", 0.83, 1);
    /** Characters of {@link #CASH_AFTER_PUMPS} the budget of {@link #budgetCutBeforeTheAnswer} keeps. */
    public static final int BUDGET_KEPT_CHARS = PUMPS.length() + 1;

    private String runId = "run-test-1";
    private String question = "What was the operating cash flow of Acme Corp in 2023?";
    private boolean rewrite = true;
    private List<String> rewrites = List.of("Acme Corp operating cash flow 2023");
    private boolean embed = true;
    private List<String> embedTexts = null;
    private boolean retrieve = true;
    private boolean reconstructed = false;
    private List<Passage> retrieved = List.of(CASH_2023, REVENUE_2022, WEATHER, CAPEX_2023);
    private boolean rerank = true;
    private List<Passage> rerankOutput = null;
    private boolean generate = true;
    private List<Passage> context = null;
    private String answer = "Acme Corp's operating cash flow in 2023 was $4.1 billion.";
    private String gateReply;
    private boolean assembledWhole;
    private List<PassageFate> fates;

    public static RunBuilder healthy() {
        return new RunBuilder();
    }

    public RunBuilder runId(String id) {
        this.runId = id;
        return this;
    }

    public RunBuilder question(String q) {
        this.question = q;
        return this;
    }

    public RunBuilder rewrites(String... outputs) {
        this.rewrites = List.of(outputs);
        return this;
    }

    public RunBuilder noRewrite() {
        this.rewrite = false;
        return this;
    }

    public RunBuilder embedded(String... texts) {
        this.embedTexts = List.of(texts);
        return this;
    }

    public RunBuilder noEmbed() {
        this.embed = false;
        return this;
    }

    public RunBuilder retrieved(Passage... passages) {
        this.retrieved = ranked(List.of(passages));
        return this;
    }

    public RunBuilder reconstructed() {
        this.reconstructed = true;
        return this;
    }

    public RunBuilder reranked(Passage... kept) {
        this.rerankOutput = ranked(List.of(kept));
        return this;
    }

    public RunBuilder noRerank() {
        this.rerank = false;
        return this;
    }

    public RunBuilder context(Passage... passages) {
        this.context = List.of(passages);
        return this;
    }

    /** Context assembly seen: the generator's context handed on by the stage before and kept whole, in its order. */
    public RunBuilder assembledWhole() {
        this.assembledWhole = true;
        return this;
    }

    /** Context assembly seen with these fates of the passages handed on; the context must hold what each kept. */
    public RunBuilder assembled(PassageFate... handedOn) {
        this.fates = List.of(handedOn);
        return this;
    }

    /**
     * The reranker hands on {@link #CASH_AFTER_PUMPS} and {@link #REVENUE_2022}; the context budget keeps the first
     * one's opening sentence only, cutting the one that answers, and the generator says it does not know.
     */
    public RunBuilder budgetCutBeforeTheAnswer() {
        Passage cut = new Passage(CASH_AFTER_PUMPS.id(), CASH_AFTER_PUMPS.text().substring(0, BUDGET_KEPT_CHARS),
                CASH_AFTER_PUMPS.score(), 1);
        int revenue = REVENUE_2022.text().length();
        return retrieved(CASH_AFTER_PUMPS, REVENUE_2022, WEATHER).reranked(CASH_AFTER_PUMPS, REVENUE_2022)
                .context(cut, REVENUE_2022)
                .assembled(new PassageFate(CASH_AFTER_PUMPS.id(), 1, PassageFate.Fate.CUT, 1,
                                CASH_AFTER_PUMPS.text().length(), BUDGET_KEPT_CHARS),
                        new PassageFate(REVENUE_2022.id(), 2, PassageFate.Fate.WHOLE, 2, revenue, revenue))
                .answer("I don't know.");
    }

    public RunBuilder answer(String a) {
        this.answer = a;
        return this;
    }

    /** The pipeline's own relevance gate stopped the run with this reply: the gate stands in the generator's place. */
    public RunBuilder stoppedByGate(String reply) {
        this.gateReply = reply;
        this.answer = GenerateStage.GATE_STOPPED_ANSWER;
        return this;
    }

    public RunBuilder noGenerate() {
        this.generate = false;
        return this;
    }

    private static List<Passage> ranked(List<Passage> passages) {
        List<Passage> out = new ArrayList<>();
        for (int i = 0; i < passages.size(); i++) {
            out.add(passages.get(i).withRank(i + 1));
        }
        return out;
    }

    public Run build() {
        List<Passage> kept = rerankOutput != null ? rerankOutput : ranked(List.of(CASH_2023, CAPEX_2023));
        List<Passage> ctx = context != null ? context : (rerank ? kept : retrieved);
        List<String> texts = embedTexts != null ? embedTexts : (rewrite ? rewrites : List.of(question));
        Instant t0 = Instant.parse("2026-11-29T10:00:00Z");
        AssembleStage assemble = AssembleStage.absent();
        if (fates != null) {
            assemble = new AssembleStage(true, rerank ? AssembleStage.BY_RERANK : AssembleStage.BY_RETRIEVE, fates,
                    null, null);
        } else if (assembledWhole) {
            List<PassageFate> fates = new ArrayList<>();
            for (int i = 0; i < ctx.size(); i++) {
                int chars = ctx.get(i).text().length();
                fates.add(new PassageFate(ctx.get(i).id(), i + 1, PassageFate.Fate.WHOLE, i + 1, chars, chars));
            }
            assemble = new AssembleStage(true, rerank ? AssembleStage.BY_RERANK : AssembleStage.BY_RETRIEVE, fates,
                    null, null);
        }
        return new Run(SchemaIds.RUN_V1, runId, "support-bot", null, question, t0, t0.plusSeconds(2), false, null,
                List.of("c1", "c2", "c3", "c4", "c5"), List.of(),
                new RunStages(
                        rewrite ? new RewriteStage(true, 300, List.of("c1"), "gpt-4o-mini", question, rewrites)
                                : RewriteStage.absent(),
                        embed ? new EmbedStage(true, 40, List.of("c2"), "text-embedding-3-small", texts, 1536)
                                : EmbedStage.absent(),
                        retrieve ? new RetrieveStage(true, 20, List.of("c3"), "qdrant", null, 10, retrieved, reconstructed)
                                : RetrieveStage.absent(),
                        rerank ? new RerankStage(true, 120, List.of("c4"), "rerank-v3.5", question, retrieved, kept,
                                kept.size()) : RerankStage.absent(),
                        generate ? new GenerateStage(true, 900, List.of("c5"), "gpt-4o", ctx, "Context: ...", answer,
                                new TokenUsage(400, 12), false, gateReply) : GenerateStage.absent())
                        .withAssemble(assemble));
    }
}
