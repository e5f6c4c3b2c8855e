package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.ChatRole;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.AssembleStage;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.EmbedStage;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.HttpError;
import io.raglog.schemas.Passage;
import io.raglog.schemas.RerankStage;
import io.raglog.schemas.RetrieveStage;
import io.raglog.schemas.RewriteStage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunIds;
import io.raglog.schemas.RunStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Turns the calls of one run into the harmonized {@link Run}. Knows no vendor: it reads {@code CallDetail}s only.
 * Failed calls (429, 5xx) count as the stage's calls and as HTTP errors; the stage's content comes from the
 * successful ones.
 */
public final class RunBuilder {

    private RunBuilder() {}

    /**
     * @param anchor the generator call that closed the run, or for an incomplete run its earliest call
     * @param incompleteReason null for a complete run
     */
    public static Run build(String pipeline, String runHint, List<ClassifiedCall> calls, ClassifiedCall anchor,
            String incompleteReason) {
        return build(pipeline, runHint, calls, anchor, incompleteReason, new NormalisedTexts());
    }

    /** @param norm the texts of these calls linking normalised already; those normalised here are added */
    static Run build(String pipeline, String runHint, List<ClassifiedCall> calls, ClassifiedCall anchor,
            String incompleteReason, NormalisedTexts norm) {
        List<ClassifiedCall> ordered = new ArrayList<>(calls);
        ordered.sort(Comparator.comparing((ClassifiedCall c) -> c.event().startedAt())
                .thenComparing(c -> c.event().eventId()));

        Map<Stage, List<ClassifiedCall>> byStage = new EnumMap<>(Stage.class);
        List<HttpError> errors = new ArrayList<>();
        for (ClassifiedCall c : ordered) {
            byStage.computeIfAbsent(c.stage(), s -> new ArrayList<>()).add(c);
            if (c.event().failed()) {
                errors.add(new HttpError(c.event().eventId(), c.stage(),
                        c.event().response() == null ? 0 : c.event().response().status()));
            }
        }

        RewriteStage rewrite = rewrite(byStage.getOrDefault(Stage.REWRITE, List.of()));
        EmbedStage embed = embed(byStage.getOrDefault(Stage.EMBED, List.of()));
        RetrieveStage retrieved = retrieve(byStage.getOrDefault(Stage.RETRIEVE, List.of()), norm);
        List<ClassifiedCall> rerankCalls = byStage.getOrDefault(Stage.RERANK, List.of());
        RerankStage rerank = rerank(rerankCalls, retrieved.passages(), norm);
        List<ClassifiedCall> generatorCalls = byStage.getOrDefault(Stage.GENERATE, List.of());
        // what was handed on, found in the prompt once: the generator's context and context assembly both read it
        List<Passage> handedOn = rerank.present() ? rerank.output() : retrieved.passages();
        ChatDetail prompt = promptCall(generatorCalls, norm);
        List<PromptMatches.Match> matches = prompt == null ? List.of()
                : PromptMatches.find(norm.prompt(prompt), handedOn, prompt.contextPassages(), norm);
        GenerateStage generate = generate(generatorCalls, prompt, handedOn, matches, norm);
        RetrieveStage retrieve = retrieved.present() ? retrieved : reconstructRetrieval(rerank, generate);
        AssembleStage assemble = assemble(retrieved, rerank, rerankCalls, prompt, handedOn, matches);

        String question = question(rewrite, generatorCalls, embed);
        Instant start = start(ordered);
        Instant end = end(ordered);
        List<String> callIds = ids(ordered);
        String session = session(ordered);
        return new Run(SchemaIds.RUN_V3, RunIds.of(pipeline, runHint, anchor.event().eventId()), pipeline,
                runHint, question, start, end, incompleteReason != null, incompleteReason, callIds, errors,
                new RunStages(rewrite, embed, retrieve, rerank, assemble, generate), null, null, session);
    }

    /**
     * A loop, not a stream, here and in {@link #latency}: every stage calls both, and their pipelines were an eighth
     * of what building a run allocated (JFR). The calls themselves when none failed, as most runs' (callers only read
     * the list): a copy of every stage's calls was 1.9 % of what linking a run allocated (JFR, issue #27).
     */
    private static List<ClassifiedCall> succeeded(List<ClassifiedCall> calls) {
        if (noneFailed(calls)) {
            return calls;
        }
        List<ClassifiedCall> ok = new ArrayList<>(calls.size());
        for (ClassifiedCall c : calls) {
            if (!c.event().failed()) {
                ok.add(c);
            }
        }
        return ok;
    }

    private static boolean noneFailed(List<ClassifiedCall> calls) {
        for (ClassifiedCall c : calls) {
            if (c.event().failed()) {
                return false;
            }
        }
        return true;
    }

    /** From the stage's first start to its last end (toEpochMilli keeps the order of instants, so min and max). */
    private static long latency(List<ClassifiedCall> calls) {
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (ClassifiedCall c : calls) {
            start = Math.min(start, c.event().startedAt().toEpochMilli());
            end = Math.max(end, c.event().endedAt().toEpochMilli());
        }
        return calls.isEmpty() ? 0 : Math.max(0, end - start);
    }

    /**
     * The calls' event ids, in their order, unmodifiable. From an array rather than a stream, here and in
     * {@link #start}, {@link #end}, {@link #session}: every stage and the run take their ids, and those pipelines were
     * a tenth of what linking a run allocated (JFR of RaglogBenchmarks.assembleRun, issue #27).
     */
    private static List<String> ids(List<ClassifiedCall> calls) {
        String[] ids = new String[calls.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = calls.get(i).event().eventId();
        }
        return Collections.unmodifiableList(Arrays.asList(ids));
    }

    /** The earliest start, the first of equal ones; null when no calls; a null start throws, as Stream.min did. */
    private static Instant start(List<ClassifiedCall> calls) {
        Instant start = null;
        for (ClassifiedCall c : calls) {
            Instant s = Objects.requireNonNull(c.event().startedAt());
            if (start == null || s.compareTo(start) < 0) {
                start = s;
            }
        }
        return start;
    }

    /** The latest end, the first of equal ones; null when no calls; a null end throws, as Stream.max did. */
    private static Instant end(List<ClassifiedCall> calls) {
        Instant end = null;
        for (ClassifiedCall c : calls) {
            Instant e = Objects.requireNonNull(c.event().endedAt());
            if (end == null || e.compareTo(end) > 0) {
                end = e;
            }
        }
        return end;
    }

    /** A pipeline sends its session on every call: the first that has one speaks for the run. */
    private static String session(List<ClassifiedCall> calls) {
        for (ClassifiedCall c : calls) {
            String s = c.event().session();
            if (s != null && !s.isBlank()) {
                return s;
            }
        }
        return null;
    }

    private static RewriteStage rewrite(List<ClassifiedCall> calls) {
        if (calls.isEmpty()) {
            return RewriteStage.absent();
        }
        List<ClassifiedCall> ok = succeeded(calls);
        ChatDetail any = (ChatDetail) calls.get(0).detail();
        Set<String> outputs = new LinkedHashSet<>();
        for (ClassifiedCall c : ok) {
            outputs.addAll(RewriteQueries.split(((ChatDetail) c.detail()).output()));
        }
        return new RewriteStage(true, latency(calls), ids(calls), any.model(), any.question(), List.copyOf(outputs));
    }

    private static EmbedStage embed(List<ClassifiedCall> calls) {
        if (calls.isEmpty()) {
            return EmbedStage.absent();
        }
        Set<String> texts = new LinkedHashSet<>();
        Integer dimensions = null;
        String model = ((EmbedDetail) calls.get(0).detail()).model();
        for (ClassifiedCall c : calls) {
            EmbedDetail e = (EmbedDetail) c.detail();
            texts.addAll(e.texts());
            if (dimensions == null && e.vectors() != null && !e.vectors().isEmpty()) {
                dimensions = e.vectors().get(0).length;
            }
        }
        return new EmbedStage(true, latency(calls), ids(calls), model, List.copyOf(texts), dimensions);
    }

    /** Several retrieval calls (one per rewritten query) are merged: first appearance wins, ranks renumbered. */
    private static RetrieveStage retrieve(List<ClassifiedCall> calls, NormalisedTexts norm) {
        if (calls.isEmpty()) {
            return RetrieveStage.absent();
        }
        // a passage is the same as one before it by its id, or without one by its normalised text: ids and texts
        // are told apart by the set they are in, not by a key concatenated for each passage
        Set<String> seenIds = new HashSet<>();
        Set<String> seenTexts = new HashSet<>();
        RetrieveDetail first = (RetrieveDetail) calls.get(0).detail();
        List<Passage> ranked = new ArrayList<>();
        for (ClassifiedCall c : succeeded(calls)) {
            for (Passage p : ((RetrieveDetail) c.detail()).passages()) {
                if (p.id() != null ? seenIds.add(p.id()) : seenTexts.add(norm.text(p.text()))) {
                    // a content id hashed for a passage kept only: one found again is not hashed
                    String id = p.id() != null ? p.id() : Texts.normalisedContentId(norm.text(p.text()));
                    ranked.add(new Passage(id, p.text(), p.score(), ranked.size() + 1));
                }
            }
        }
        return new RetrieveStage(true, latency(calls), ids(calls), first.store(), first.queryText(), first.topK(),
                ranked, false);
    }

    /** Rerank documents are plain texts: give them the retrieval ids when the texts match. */
    private static RerankStage rerank(List<ClassifiedCall> calls, List<Passage> retrieved, NormalisedTexts norm) {
        if (calls.isEmpty()) {
            return RerankStage.absent();
        }
        List<ClassifiedCall> ok = succeeded(calls);
        RerankDetail detail = ok.size() > 1 ? batchesAsOne(ok, norm)
                : (RerankDetail) (ok.isEmpty() ? calls.get(0) : ok.get(ok.size() - 1)).detail();
        Map<String, String> idByText = new HashMap<>();
        for (Passage p : retrieved) {
            idByText.putIfAbsent(norm.text(p.text()), p.id());
        }
        List<Passage> input = new ArrayList<>();
        for (int i = 0; i < detail.documents().size(); i++) {
            String text = detail.documents().get(i);
            String normalised = norm.text(text);
            // hashed only when needed: most documents match a retrieved passage
            String id = idByText.containsKey(normalised) ? idByText.get(normalised)
                    : Texts.normalisedContentId(normalised);
            input.add(new Passage(id, text, null, i + 1));
        }
        List<Passage> output = new ArrayList<>();
        if (!ok.isEmpty()) {
            for (RerankDetail.RerankResult r : detail.results()) {
                if (r.index() >= 0 && r.index() < input.size()) {
                    Passage p = input.get(r.index());
                    output.add(new Passage(p.id(), p.text(), r.score(), output.size() + 1));
                }
            }
        }
        Integer topN = detail.topN() != null ? detail.topN() : (ok.isEmpty() ? null : output.size());
        return new RerankStage(true, latency(calls), ids(calls), detail.model(), detail.query(), input, output, topN);
    }

    /**
     * A ranking asked in batches (LlamaIndex's {@code LLMRerank}: disjoint documents, the same query) as one: the
     * documents in the order the batches were asked, every choice ranked by its score, best first (an order without
     * scores kept batch by batch). Rankings of different queries (an agent's searches, each reranked) are read as
     * {@link #searchesAsOne}. Calls that are not batches of one ranking (a sliding window over the same documents) keep
     * the last, as one call does.
     */
    private static RerankDetail batchesAsOne(List<ClassifiedCall> calls, NormalisedTexts norm) {
        RerankDetail last = (RerankDetail) calls.get(calls.size() - 1).detail();
        if (eachItsOwnQuery(calls)) {
            return searchesAsOne(calls, norm);
        }
        Set<String> seen = new HashSet<>();
        List<String> documents = new ArrayList<>();
        List<RerankDetail.RerankResult> results = new ArrayList<>();
        boolean scored = true;
        for (ClassifiedCall c : calls) {
            RerankDetail batch = (RerankDetail) c.detail();
            if (!Objects.equals(batch.query(), last.query())) {
                return last;
            }
            for (String d : batch.documents()) {
                if (!seen.add(norm.text(d))) {
                    return last;
                }
            }
            for (RerankDetail.RerankResult r : batch.results()) {
                results.add(new RerankDetail.RerankResult(documents.size() + r.index(), r.score()));
                scored &= r.score() != null;
            }
            documents.addAll(batch.documents());
        }
        if (scored) {
            results.sort(Comparator.comparing((RerankDetail.RerankResult r) -> r.score()).reversed());
        }
        return new RerankDetail(last.adapter(), last.model(), last.query(), documents, results, null);
    }

    /** Whether every rerank call ranked for a query of its own, none for the same as another. */
    private static boolean eachItsOwnQuery(List<ClassifiedCall> calls) {
        Set<String> queries = new HashSet<>();
        for (ClassifiedCall c : calls) {
            String query = ((RerankDetail) c.detail()).query();
            if (query == null || !queries.add(query)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Rankings of different queries (an agent that searched twice, its tool reranking each time) as one: every
     * document any of them was given, once, in the order they were given; what each kept, in the order of the calls
     * and then of its ranking, a document kept twice counted once, where it was first kept. Scores of different
     * queries do not compare, so none are sorted across calls.
     */
    private static RerankDetail searchesAsOne(List<ClassifiedCall> calls, NormalisedTexts norm) {
        RerankDetail last = (RerankDetail) calls.get(calls.size() - 1).detail();
        Map<String, Integer> indexByText = new HashMap<>();
        List<String> documents = new ArrayList<>();
        Set<Integer> kept = new HashSet<>();
        List<RerankDetail.RerankResult> results = new ArrayList<>();
        for (ClassifiedCall c : calls) {
            RerankDetail search = (RerankDetail) c.detail();
            int[] index = new int[search.documents().size()];
            for (int i = 0; i < index.length; i++) {
                String d = search.documents().get(i);
                Integer known = indexByText.putIfAbsent(norm.text(d), documents.size());
                index[i] = known != null ? known : documents.size();
                if (known == null) {
                    documents.add(d);
                }
            }
            for (RerankDetail.RerankResult r : search.results()) {
                if (r.index() >= 0 && r.index() < index.length && kept.add(index[r.index()])) {
                    results.add(new RerankDetail.RerankResult(index[r.index()], r.score()));
                }
            }
        }
        return new RerankDetail(last.adapter(), last.model(), last.query(), documents, results, null);
    }

    /**
     * The generator call whose prompt and answer the run keeps: its last that succeeded, else its last; null if none.
     * An answer synthesised in several calls is read as one call made of them ({@link #stepsAsOne}).
     */
    private static ChatDetail promptCall(List<ClassifiedCall> calls, NormalisedTexts norm) {
        if (calls.isEmpty()) {
            return null;
        }
        List<ClassifiedCall> ok = succeeded(calls);
        if (ok.size() > 1) {
            return stepsAsOne(ok, norm);
        }
        return (ChatDetail) (ok.isEmpty() ? calls.get(calls.size() - 1) : ok.get(ok.size() - 1)).detail();
    }

    /**
     * The steps of an answer synthesised in several calls ({@link SynthesisChains}) as the one generator call the run
     * reads: their prompts in order, every passage they put before the model but the earlier steps' answers they carry
     * (a tree summary's context), the last step's answer; the prompt size of its largest step, the one a context
     * window bounds.
     */
    private static ChatDetail stepsAsOne(List<ClassifiedCall> steps, NormalisedTexts norm) {
        Set<String> answers = new HashSet<>();
        Set<String> seen = new HashSet<>();
        List<ChatMessage> messages = new ArrayList<>();
        List<String> passages = new ArrayList<>();
        Integer largestPrompt = null;
        ChatDetail last = null;
        for (ClassifiedCall c : steps) {
            last = (ChatDetail) c.detail();
            messages.addAll(last.messages());
            for (String p : last.contextPassages() == null ? List.<String>of() : last.contextPassages()) {
                String n = norm.text(p);
                if (!answers.contains(n) && seen.add(n)) {
                    passages.add(p);
                }
            }
            if (last.output() != null) {
                answers.add(norm.text(last.output()));
            }
            Integer in = last.usage() == null ? null : last.usage().inputTokens();
            if (in != null && (largestPrompt == null || in > largestPrompt)) {
                largestPrompt = in;
            }
        }
        return new ChatDetail(last.adapter(), last.model(), messages, last.output(),
                new TokenUsage(largestPrompt, last.usage() == null ? null : last.usage().outputTokens()), last.role(),
                last.question(), String.join("\n\n", passages), passages, last.streamed());
    }

    private static GenerateStage generate(List<ClassifiedCall> calls, ChatDetail detail, List<Passage> known,
            List<PromptMatches.Match> matches, NormalisedTexts norm) {
        if (calls.isEmpty()) {
            return GenerateStage.absent();
        }
        List<ClassifiedCall> ok = succeeded(calls);
        List<Passage> context = ContextPassages.inPrompt(detail, known, matches, norm);
        TokenUsage usage = TokenUsage.UNKNOWN;
        for (ClassifiedCall c : calls) {
            usage = usage.plus(((ChatDetail) c.detail()).usage());
        }
        // the pipeline's own gate said the context would not do, and stopped: the user got no answer
        boolean gated = detail.role() == ChatRole.GATE && !ok.isEmpty();
        String answer = ok.isEmpty() ? null : gated ? GenerateStage.GATE_STOPPED_ANSWER : detail.output();
        return new GenerateStage(true, latency(calls), ids(calls), detail.model(), context, detail.promptText(),
                answer, usage, detail.streamed(), gated ? detail.output() : null);
    }

    /**
     * What of the passages handed on reached the prompt. Retrieval rebuilt from the prompt itself (an in-process store
     * and no reranker) shows nothing handed on but what arrived, so assembly is then not seen.
     */
    private static AssembleStage assemble(RetrieveStage retrieved, RerankStage rerank,
            List<ClassifiedCall> rerankCalls, ChatDetail prompt, List<Passage> handedOn,
            List<PromptMatches.Match> matches) {
        if (prompt == null) {
            return AssembleStage.absent();
        }
        Integer promptTokens = prompt.usage() == null ? null : prompt.usage().inputTokens();
        if (rerank.present()) {
            List<Passage> input = rerank.input() == null ? List.of() : rerank.input();
            // a reranker that scored every passage, or chose among them unasked for how many (an LLM reranker's
            // choices, which LlamaIndex's LLMRerank then cuts to its top_n in the pipeline's own code), leaves the
            // pipeline to keep its own top few: that cut is the reranker's, not assembly's
            boolean ownTopN = !input.isEmpty() && (handedOn.size() >= input.size() || askedNoTopN(rerankCalls));
            return ContextAssembly.of(handedOn, matches, AssembleStage.BY_RERANK, ownTopN, prompt, promptTokens);
        }
        return retrieved.present()
                ? ContextAssembly.of(handedOn, matches, AssembleStage.BY_RETRIEVE, false, prompt, promptTokens)
                : AssembleStage.absent();
    }

    /** Whether the run's rerank calls asked for no top n (every one that succeeded): the pipeline cuts its ranking. */
    private static boolean askedNoTopN(List<ClassifiedCall> rerankCalls) {
        boolean any = false;
        for (int i = 0; i < rerankCalls.size(); i++) {
            ClassifiedCall c = rerankCalls.get(i);
            if (!c.event().failed()) {
                if (((RerankDetail) c.detail()).topN() != null) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /** In-process vector store: no retrieval call was logged, so rebuild what it returned from what came after. */
    private static RetrieveStage reconstructRetrieval(RerankStage rerank, GenerateStage generate) {
        List<Passage> passages;
        List<String> callIds;
        if (rerank.present() && !rerank.input().isEmpty()) {
            passages = rerank.input();
            callIds = rerank.callIds();
        } else if (generate.present() && !generate.context().isEmpty()) {
            passages = generate.context();
            callIds = generate.callIds();
        } else {
            return RetrieveStage.absent();
        }
        return new RetrieveStage(true, 0, callIds, null, null, null, passages, true);
    }

    private static String question(RewriteStage rewrite, List<ClassifiedCall> generatorCalls, EmbedStage embed) {
        if (rewrite.present() && rewrite.input() != null) {
            return rewrite.input();
        }
        for (int i = generatorCalls.size() - 1; i >= 0; i--) {
            String q = ((ChatDetail) generatorCalls.get(i).detail()).question();
            if (q != null && !q.isBlank()) {
                return q;
            }
        }
        return embed.present() && !embed.texts().isEmpty() ? embed.texts().get(0) : null;
    }

    static CallEvent event(ClassifiedCall c) {
        return c.event();
    }
}
