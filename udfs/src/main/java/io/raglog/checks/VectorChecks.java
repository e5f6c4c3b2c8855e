package io.raglog.checks;

import static io.raglog.checks.FeatureList.*;

import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Similarities from a small local embedding model: how close the passage most similar to the question is and where it
 * ranks, whether the reranker's order agrees with the similarity order and whether it cut the most similar passage,
 * question vs rewrite vs embedded text, answer vs context. High similarity does not mean a passage answers the
 * question (the LLM checks judge that); these are cheap signals for the classifiers.
 */
public final class VectorChecks {

    public static final String CHECK = "vectors";

    private final Embedder embedder;

    public VectorChecks(Embedder embedder) {
        this.embedder = embedder;
    }

    public void apply(Run run, FeatureVector v, List<Finding> findings) {
        String question = RunTexts.question(run);
        if (question == null) {
            return; // every vector feature compares with the question
        }
        List<String> embedded = RunTexts.embeddedQueries(run);
        Vectors vec = new Vectors(embedder, question, embedded, run);
        float[] q = vec.of(question);

        List<String> rewrites = RunTexts.rewrites(run);
        if (run.has(Stage.REWRITE) && !rewrites.isEmpty()) {
            v.put(REWRITE_SIM_QUESTION, rewrites.stream().mapToDouble(r -> Embedder.cosine(q, vec.of(r))).min().orElse(0));
            substituted(question, rewrites, v, findings);
        }
        if (!embedded.isEmpty()) {
            List<String> sources = RunTexts.embeddingSources(run);
            double minToSource = 1;
            double minToQuestion = 1;
            for (String t : embedded) {
                float[] e = vec.of(t);
                minToQuestion = Math.min(minToQuestion, Embedder.cosine(q, e));
                minToSource = Math.min(minToSource,
                        sources.stream().mapToDouble(s -> Embedder.cosine(vec.of(s), e)).max().orElse(0));
            }
            v.put(EMBED_SIM_SOURCE, minToSource).put(EMBED_SIM_QUESTION, minToQuestion);
        }
        List<Passage> retrieved = RunTexts.retrieved(run);
        if (run.has(Stage.RETRIEVE) && !retrieved.isEmpty()) {
            int best = argmax(q, retrieved, vec);
            double sum = 0;
            for (Passage p : retrieved) {
                sum += Embedder.cosine(q, vec.of(p.text()));
            }
            v.put(RETRIEVE_TOP_SIM, Embedder.cosine(q, vec.of(retrieved.get(best).text())))
                    .put(RETRIEVE_MEAN_SIM, sum / retrieved.size())
                    .put(RETRIEVE_MOST_SIMILAR_RANK, best + 1);
        }
        if (run.has(Stage.RERANK)) {
            rerank(run, q, vec, v, findings);
        }
        List<Passage> context = RunTexts.context(run);
        if (run.has(Stage.ASSEMBLE) && !context.isEmpty()) {
            double bestLost = -2;
            for (RunTexts.HandedOn h : RunTexts.handedOn(run)) {
                if (h.lost()) {
                    bestLost = Math.max(bestLost, Embedder.cosine(q, vec.of(h.passage().text())));
                }
            }
            if (bestLost > -2) {
                double bestKept = Embedder.cosine(q, vec.of(context.get(argmax(q, context, vec)).text()));
                v.put(ASSEMBLE_LOST_SIM_GAP, bestLost - bestKept);
            }
        }
        if (run.has(Stage.GENERATE)) {
            if (!context.isEmpty()) {
                v.put(GENERATE_CONTEXT_TOP_SIM, Embedder.cosine(q, vec.of(context.get(argmax(q, context, vec)).text())));
            }
            String answer = run.stages().generate().answer();
            if (answer != null && !answer.isBlank()) {
                float[] a = vec.of(answer);
                v.put(GENERATE_ANSWER_QUESTION_SIM, Embedder.cosine(q, a));
                if (!context.isEmpty()) {
                    v.put(GENERATE_ANSWER_CONTEXT_SIM, Embedder.cosine(a, vec.of(context.get(argmax(a, context, vec)).text())));
                }
            }
        }
    }

    private static void rerank(Run run, float[] q, Vectors vec, FeatureVector v, List<Finding> findings) {
        List<Passage> input = RunTexts.nonNull(run.stages().rerank().input());
        List<Passage> output = RunTexts.kept(run);
        if (input.isEmpty()) {
            return;
        }
        Set<String> kept = RunTexts.ids(output);
        int best = argmax(q, input, vec);
        Passage mostSimilar = input.get(best);
        boolean cut = !kept.contains(mostSimilar.id());
        v.put(RERANK_CUT_MOST_SIMILAR, cut);
        double bestInput = Embedder.cosine(q, vec.of(mostSimilar.text()));
        double bestKept = output.stream().mapToDouble(p -> Embedder.cosine(q, vec.of(p.text()))).max().orElse(0);
        v.put(RERANK_TOP_SIM_GAP, Math.max(0, bestInput - bestKept));
        if (cut) {
            findings.add(Finding.of(CHECK,
                    Fact.of(Stage.RERANK, FactKind.CUT_MOST_SIMILAR, "").withPassages(List.of(mostSimilar.id())),
                    "the passage most similar to the question ("
                    + mostSimilar.id() + ") was input #" + (best + 1) + "; the reranker kept " + output.size()
                    + " and not that one"));
        }
        double[] position = new double[output.size()];
        double[] similarity = new double[output.size()];
        for (int i = 0; i < output.size(); i++) {
            position[i] = -i; // first kept = highest
            similarity[i] = Embedder.cosine(q, vec.of(output.get(i).text()));
        }
        v.put(RERANK_SIM_CORRELATION, Ranks.spearman(position, similarity));
    }

    /**
     * The words the rewrite put for question words that mean something else: those {@link ContentWords} finds lost,
     * and those {@link InPlaceSubstitutions} finds replaced where they stood, each a feature; a reader is told each
     * replaced word once, in place first.
     */
    private void substituted(String question, List<String> rewrites, FeatureVector v, List<Finding> findings) {
        List<ContentWords.Substitution> lost = ContentWords.of(question, rewrites).substitutions(embedder);
        List<ContentWords.Substitution> inPlace = InPlaceSubstitutions.of(question, rewrites, embedder);
        v.put(REWRITE_SUBSTITUTED, lost.size()).put(REWRITE_SUBSTITUTED_IN_PLACE, inPlace.size())
                .put(REWRITE_OPPOSITE_IN_PLACE, InPlaceSubstitutions.opposites(inPlace));
        for (ContentWords.Substitution sub : ContentWords.toldOnce(inPlace, lost)) {
            Fact changed = Fact.of(Stage.REWRITE, FactKind.CHANGED_WORD, Fact.changed(sub.asked(), sub.written()));
            findings.add(Finding.of(CHECK, changed,
                    "the rewrite says '" + sub.written() + "' where the question said '" + sub.asked() + "'"));
        }
    }

    private static int argmax(float[] q, List<Passage> passages, Vectors vec) {
        int best = 0;
        double bestSim = -2;
        for (int i = 0; i < passages.size(); i++) {
            double s = Embedder.cosine(q, vec.of(passages.get(i).text()));
            if (s > bestSim) {
                bestSim = s;
                best = i;
            }
        }
        return best;
    }

    /** Every text of the run embedded in one batch up front; lookups after that are free. */
    private static final class Vectors {
        private final Map<String, float[]> byText = new HashMap<>();

        /** @param embedded the run's embedded queries ({@link RunTexts#embeddedQueries}) */
        Vectors(Embedder embedder, String question, List<String> embedded, Run run) {
            Set<String> texts = new LinkedHashSet<>();
            texts.add(question);
            texts.addAll(RunTexts.rewrites(run));
            embedded.forEach(t -> texts.add(t == null ? "" : t));
            texts.addAll(RunTexts.embeddingSources(run));
            RunTexts.allPassages(run).forEach(p -> texts.add(p.text() == null ? "" : p.text()));
            // a passage the context budget cut is in the context as the part that reached the prompt, under the id
            // of the whole one (which allPassages keeps): both texts are compared with the question
            RunTexts.context(run).forEach(p -> texts.add(p.text() == null ? "" : p.text()));
            if (run.has(Stage.GENERATE) && run.stages().generate().answer() != null) {
                texts.add(run.stages().generate().answer());
            }
            List<String> list = new ArrayList<>(texts);
            List<float[]> vectors = embedder.embed(list);
            for (int i = 0; i < list.size(); i++) {
                byText.put(list.get(i), vectors.get(i));
            }
        }

        float[] of(String text) {
            return byText.get(text == null ? "" : text);
        }
    }
}
