package io.raglog.checks;

import io.raglog.schemas.AssembleStage;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunStages;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;
import java.util.regex.Pattern;

/** The texts of a run the checks keep asking for: the question, the rewrites, the passages each stage saw. */
public final class RunTexts {

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private RunTexts() {}

    /** The user's question: the run's, else the rewriter's input; null when neither was logged. */
    public static String question(Run run) {
        if (run.question() != null && !run.question().isBlank()) {
            return run.question();
        }
        String input = run.stages().rewrite().present() ? run.stages().rewrite().input() : null;
        return input == null || input.isBlank() ? null : input;
    }

    /** The rewriter's outputs without nulls, unmodifiable (a view when there are none, as {@link #nonNull}). */
    public static List<String> rewrites(Run run) {
        return run.stages().rewrite().present() ? withoutNulls(run.stages().rewrite().outputs()) : List.of();
    }

    /** The text the embedding stage should have embedded: the rewrites when there are any, else the question. */
    public static List<String> embeddingSources(Run run) {
        List<String> rewrites = rewrites(run);
        if (!rewrites.isEmpty()) {
            return rewrites;
        }
        String q = question(run);
        return q == null ? List.of() : List.of(q);
    }

    /**
     * The queries the embedding stage embedded: each text it sent without the instruction an embedding model wants
     * before a query ({@link QueryInstruction}), read against the rewrites and the question; empty without the stage.
     */
    public static List<String> embeddedQueries(Run run) {
        List<String> texts = run.stages().embed().present() ? run.stages().embed().texts() : null;
        if (texts == null || texts.isEmpty()) {
            return List.of();
        }
        List<String> sources = new ArrayList<>(embeddingSources(run));
        String question = question(run);
        if (question != null && !sources.contains(question)) {
            sources.add(question);
        }
        return QueryInstruction.queriesOf(texts, sources);
    }

    /** Every passage retrieval produced (or that was rebuilt), in retrieval order. */
    public static List<Passage> retrieved(Run run) {
        return run.stages().retrieve().present() ? nonNull(run.stages().retrieve().passages()) : List.of();
    }

    public static List<Passage> context(Run run) {
        return run.stages().generate().present() ? nonNull(run.stages().generate().context()) : List.of();
    }

    /**
     * What the reranker's cut let through, in its order. A reranker asked for its top n replies with what it kept,
     * and what the context budget dropped after it is assembly's loss, not the reranker's cut. A reranker asked
     * without a top-n (Voyage, some self-hosted ones) scores every passage and the pipeline keeps its own number: then
     * the generator's context, not the reranker's reply, says what was kept. With no generator in the run, the
     * pipeline's top-n of the reply.
     */
    public static List<Passage> kept(Run run) {
        RunStages s = run.stages();
        if (!s.rerank().present()) {
            return List.of();
        }
        List<Passage> output = nonNull(s.rerank().output());
        if (output.size() < nonNull(s.rerank().input()).size()) {
            return output;
        }
        if (s.generate().present() && !context(run).isEmpty()) {
            Set<String> inContext = ids(context(run));
            List<Passage> kept = new ArrayList<>(output.size());
            for (Passage p : output) {
                if (inContext.contains(p.id())) {
                    kept.add(p);
                }
            }
            if (!kept.isEmpty()) {
                return Collections.unmodifiableList(kept);
            }
        }
        Integer topN = s.rerank().topN();
        return topN != null && topN > 0 && topN < output.size() ? output.subList(0, topN) : output;
    }

    /**
     * Passages that were retrieved (or given to the reranker) but never reached the generator: what the reranker or
     * the pipeline's cut-off dropped. Gathered with loops rather than streams: with its map of candidates, the stream
     * was 2.6 of the 34.3 KB the checks thread allocated sending a run's LLM requests (llmSends, JFR, issue #27).
     */
    public static List<Passage> dropped(Run run) {
        RunStages s = run.stages();
        Set<String> wentOn;
        if (s.generate().present()) {
            wentOn = ids(context(run));
        } else if (s.rerank().present()) {
            // No generator: what the reranker kept is what would have gone on; only its cuts are drops.
            wentOn = ids(kept(run));
        } else {
            wentOn = null; // neither: every candidate would have gone on
        }
        List<Passage> input = s.rerank().present() ? nonNull(s.rerank().input()) : List.of();
        List<Passage> retrieved = retrieved(run);
        // sized for them all, not grown from the default table (ruleChecks, llmRequests, JFR)
        Map<String, Passage> candidates = new LinkedHashMap<>((input.size() + retrieved.size()) * 4 / 3 + 1);
        putAbsent(candidates, input);
        putAbsent(candidates, retrieved);
        if (wentOn == null) {
            wentOn = Set.copyOf(candidates.keySet());
        }
        List<Passage> dropped = new ArrayList<>(candidates.size());
        for (Passage p : candidates.values()) {
            if (!wentOn.contains(p.id())) {
                dropped.add(p);
            }
        }
        return Collections.unmodifiableList(dropped);
    }

    /** Each passage by its id, the first of an id kept; by index when the list allows it, with no iterator. */
    private static void putAbsent(Map<String, Passage> byId, List<Passage> passages) {
        if (passages instanceof RandomAccess) {
            for (int i = 0; i < passages.size(); i++) {
                byId.putIfAbsent(passages.get(i).id(), passages.get(i));
            }
        } else {
            for (Passage p : passages) {
                byId.putIfAbsent(p.id(), p);
            }
        }
    }

    /**
     * The passages handed on to the prompt with what context assembly did to each, in the order handed on; empty when
     * the run shows no assembly.
     */
    public static List<HandedOn> handedOn(Run run) {
        AssembleStage a = run.stages().assemble();
        if (!a.present()) {
            return List.of();
        }
        Map<String, Passage> byId = new HashMap<>();
        List<Passage> source = AssembleStage.BY_RERANK.equals(a.handedOnBy())
                ? nonNull(run.stages().rerank().output()) : retrieved(run);
        source.forEach(p -> byId.putIfAbsent(p.id(), p));
        List<HandedOn> out = new ArrayList<>();
        for (PassageFate fate : a.passages()) {
            Passage p = byId.get(fate.passageId());
            if (p != null) {
                out.add(fate.fate() == PassageFate.Fate.EXTRACTED ? HandedOn.extracted(p, fate, context(run))
                        : new HandedOn(p, fate));
            }
        }
        return out;
    }

    /**
     * What was a candidate for the prompt and never reached it, as the evidence-flow check reads it: the passages
     * {@link #dropped} whole and, under the id of each passage the context budget cut, what of it did not reach the
     * prompt whole ({@link HandedOn#lostSentences}: the sentence the cut falls in, and the rest). A piece
     * of information in that part was retrieved and handed on, and lost before the generator: it is not in the
     * context, which holds the passage's opening only, nor in a passage dropped whole, so without it the check
     * would call it in no retrieved passage and blame retrieval for what the budget cut.
     */
    public static List<Passage> neverReached(Run run) {
        List<Passage> dropped = dropped(run);
        List<Passage> out = dropped;
        for (HandedOn h : handedOn(run)) {
            if (h.fate().fate() == PassageFate.Fate.CUT || h.fate().fate() == PassageFate.Fate.EXTRACTED) {
                String cutOff = h.lostSentences();
                if (!cutOff.isBlank()) {
                    if (out == dropped) {
                        out = new ArrayList<>(dropped);
                    }
                    Passage whole = h.passage();
                    out.add(new Passage(whole.id(), cutOff, whole.score(), whole.rank()));
                }
            }
        }
        return out;
    }

    /** The ids of the passages handed on to the prompt that context assembly cut or dropped. */
    public static Set<String> lostInAssembly(Run run) {
        Set<String> ids = new HashSet<>();
        for (HandedOn h : handedOn(run)) {
            if (h.lost()) {
                ids.add(h.passage().id());
            }
        }
        return ids;
    }

    /**
     * A passage handed on to the prompt and its fate there.
     *
     * @param extracts what of an extracted passage reached the prompt (its context passages' texts, joined); "" for
     *     any other
     */
    public record HandedOn(Passage passage, PassageFate fate, String extracts) {

        public HandedOn(Passage passage, PassageFate fate) {
            this(passage, fate, "");
        }

        /** An extracted passage, its extracts the context passages under its id. */
        static HandedOn extracted(Passage passage, PassageFate fate, List<Passage> context) {
            StringBuilder extracts = new StringBuilder();
            for (Passage p : context) {
                if (Objects.equals(p.id(), passage.id()) && p.text() != null) {
                    extracts.append(extracts.isEmpty() ? "" : " ").append(p.text());
                }
            }
            return new HandedOn(passage, fate, extracts.toString());
        }

        public boolean lost() {
            return fate.fate() != PassageFate.Fate.WHOLE;
        }

        /**
         * The text that did not reach the prompt: all of a dropped passage, the tail of a cut one (cut where the kept
         * share of the normalised text ends), the sentences no extract of an extracted one holds, none of a whole
         * one.
         */
        public String lostText() {
            return fate.fate() == PassageFate.Fate.EXTRACTED ? extractedSentences(false)
                    : fate.lostText(passage.text());
        }

        /**
         * An extracted passage's sentences its extracts hold ({@code kept}) or do not, joined by a space. A sentence
         * an extract holds only part of is not kept: as a cut's sentence, neither part answers as the whole does.
         */
        private String extractedSentences(boolean kept) {
            String text = text();
            String held = collapsed(extracts);
            int[] bounds = AnswerSentences.sentenceBounds(text);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < bounds.length; i += 2) {
                String sentence = text.substring(bounds[i], bounds[i + 1]);
                String s = collapsed(sentence);
                if (!s.isEmpty() && held.contains(s) == kept) {
                    out.append(out.isEmpty() ? "" : " ").append(sentence.strip());
                }
            }
            return out.toString();
        }

        /**
         * Whitespace runs as one space, trimmed, lower case (the form context assembly found the extracts in): an
         * extract's lines may be joined otherwise than its passage's.
         */
        private static String collapsed(String text) {
            return WHITESPACE.matcher(text).replaceAll(" ").strip().toLowerCase(Locale.ROOT);
        }

        /**
         * What did not reach the prompt whole, by sentence: all of a dropped passage; of a cut one, the sentence the
         * cut falls in and every sentence after it. A budget cuts where its characters or tokens run out, mostly inside
         * a sentence, and neither part of that sentence answers as the whole one does: "Algorithms that" reached the
         * prompt, "use random bits are called randomized algorithms." did not.
         */
        public String lostSentences() {
            int[] span = cutSentenceSpan();
            return span == null ? lostText() : text().substring(span[0]);
        }

        /** The sentence a cut falls in, whole; empty when the passage was not cut or the cut fell between sentences. */
        public String cutSentence() {
            int[] span = cutSentenceSpan();
            return span == null || span[0] >= keptText().length() ? "" : text().substring(span[0], span[1]);
        }

        /**
         * Where a cut passage's lost sentences start and the first of them ends: the sentence the cut falls in (its
         * start the cut itself when the cut falls between sentences); null when the passage was not cut or no sentence
         * ends after the cut.
         */
        private int[] cutSentenceSpan() {
            if (fate.fate() != PassageFate.Fate.CUT) {
                return null;
            }
            int cutAt = keptText().length();
            int[] bounds = AnswerSentences.sentenceBounds(text());
            for (int i = 0; i < bounds.length; i += 2) {
                if (bounds[i + 1] > cutAt) {
                    return new int[] {Math.min(bounds[i], cutAt), bounds[i + 1]};
                }
            }
            return null;
        }

        private String text() {
            return passage.text() == null ? "" : passage.text();
        }

        /** The text that reached the prompt. */
        public String keptText() {
            return fate.fate() == PassageFate.Fate.EXTRACTED ? extracts : fate.keptText(passage.text());
        }

        /**
         * What reached the prompt whole, by sentence: the counterpart of {@link #lostSentences}. All of a whole
         * passage, none of a dropped one; of a cut one, the sentences before the one the cut falls in; of an
         * extracted one, the sentences its extracts hold whole.
         */
        public String keptSentences() {
            if (fate.fate() == PassageFate.Fate.EXTRACTED) {
                return extractedSentences(true);
            }
            int[] span = cutSentenceSpan();
            return span == null ? keptText() : text().substring(0, span[0]);
        }
    }

    /** The distinct passages of the run, by id, from every stage (for batch embedding). */
    public static List<Passage> allPassages(Run run) {
        Map<String, Passage> all = new LinkedHashMap<>();
        RunStages s = run.stages();
        retrieved(run).forEach(p -> all.putIfAbsent(p.id(), p));
        if (s.rerank().present()) {
            nonNull(s.rerank().input()).forEach(p -> all.putIfAbsent(p.id(), p));
            nonNull(s.rerank().output()).forEach(p -> all.putIfAbsent(p.id(), p));
        }
        context(run).forEach(p -> all.putIfAbsent(p.id(), p));
        return new ArrayList<>(all.values());
    }

    /**
     * The passages' texts, "" for a missing one, unmodifiable: a view read through the passages (which a run never
     * changes) rather than a stream's copy, whose pipeline, spliterator and arrays were 3.9 % of what the rule checks
     * allocated (ruleChecks, JFR). With the ids' and the candidates' maps sized, and the embed rules' sets: 21.4
     * instead of 23.9 KB a run (ruleChecks, JMH {@code -f 1 -wi 3 -w 2 -i 5 -r 2 -prof gc}, old and new alternated).
     */
    public static List<String> texts(List<Passage> passages) {
        return new PassageTexts(passages instanceof RandomAccess ? passages : new ArrayList<>(passages));
    }

    /** The passages' texts read one by one from them, by index. */
    private static final class PassageTexts extends AbstractList<String> implements RandomAccess {

        private final List<Passage> passages;

        PassageTexts(List<Passage> passages) {
            this.passages = passages;
        }

        @Override
        public String get(int i) {
            String text = passages.get(i).text();
            return text == null ? "" : text;
        }

        @Override
        public int size() {
            return passages.size();
        }
    }

    /**
     * The passages' ids, in order, each once. Sized for them, with an indexed loop: grown from the default table, and
     * through a lambda, the set was 2.1 % of what the rule checks allocated (ruleChecks, JFR).
     */
    public static Set<String> ids(List<Passage> passages) {
        List<Passage> nonNull = nonNull(passages);
        Set<String> ids = new LinkedHashSet<>(nonNull.size() * 4 / 3 + 1);
        if (nonNull instanceof RandomAccess) {
            for (int i = 0; i < nonNull.size(); i++) {
                ids.add(nonNull.get(i).id());
            }
        } else {
            for (Passage p : nonNull) {
                ids.add(p.id());
            }
        }
        return ids;
    }

    /**
     * The passages without nulls, unmodifiable. Most lists hold none: then a read-only view rather than a filtered
     * copy, since every rule asks for the passages of its stage (the copies' streams were a fortieth of what the rule
     * checks allocated). Looked through by index when the list allows it: the iterators were 0.9 of the 34.3 KB a
     * run's LLM requests allocated (llmSends, JFR, issue #27).
     */
    static List<Passage> nonNull(List<Passage> passages) {
        return passages == null ? List.of() : withoutNulls(passages);
    }

    /** The list without nulls, unmodifiable: a view of it when it holds none, else a filtered copy. */
    private static <T> List<T> withoutNulls(List<T> list) {
        if (list instanceof RandomAccess) {
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) == null) {
                    return list.stream().filter(Objects::nonNull).toList();
                }
            }
        } else {
            for (T item : list) {
                if (item == null) {
                    return list.stream().filter(Objects::nonNull).toList();
                }
            }
        }
        return Collections.unmodifiableList(list);
    }
}
