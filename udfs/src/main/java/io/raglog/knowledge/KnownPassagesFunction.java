package io.raglog.knowledge;

import io.raglog.checks.RunTexts;
import io.raglog.schemas.KnownPassages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by pipeline: keeps the passages the pipeline's runs were handed (its knowledge base as raglog sees it) and
 * gives each run a second opinion on its retrieval: the known passages it was not handed that match its question
 * best, and how well what it was handed matches ({@link KnownPassages}). A known passage that matches the question
 * far better than anything returned says retrieval missed it; a question nothing known matches says the knowledge
 * base may not hold the answer at all, which is a gap for the content's owner, not a retrieval fault.
 *
 * <p>State per pipeline: each passage's text by id, and an inverted index from each word to the passages holding
 * it. A word held by more than {@link #COMMON_WORD} passages stops collecting ids: it says little about any one
 * passage, and its list would grow with the corpus. At most {@code maxPassages} passages are kept; later ones are
 * counted, not stored. The run is looked up before its own passages are added, so what it was handed never
 * competes with itself.
 *
 * <p>The key is the pipeline, so one subtask serves all of a pipeline's runs: a lookup is a handful of state reads
 * (one per question word, then the texts of the few best candidates), far below the checks' cost per run.
 */
public class KnownPassagesFunction extends KeyedProcessFunction<String, Run, Run> {

    private static final long serialVersionUID = 1L;

    /** Passages kept per pipeline by default: a large help centre's worth of chunks. */
    public static final int DEFAULT_MAX_PASSAGES = 100_000;
    /** Passages a word's list holds at most; more, and the word is too common to point anywhere. */
    static final int COMMON_WORD = 2_000;
    /** Unreturned passages a run is given. */
    static final int UNRETURNED = 2;
    /** Candidates (by their rare words) whose texts are read and matched exactly. */
    private static final int CANDIDATES = 16;

    private final int maxPassages;

    private transient MapState<String, String> texts;
    private transient MapState<String, String[]> holders;
    private transient ValueState<Integer> held;
    private transient Counter passagesLearned;
    private transient Counter passagesNotKept;

    public KnownPassagesFunction() {
        this(DEFAULT_MAX_PASSAGES);
    }

    public KnownPassagesFunction(int maxPassages) {
        if (maxPassages < 1) {
            throw new IllegalArgumentException("known passages per pipeline must be >= 1, was " + maxPassages);
        }
        this.maxPassages = maxPassages;
    }

    @Override
    public void open(OpenContext openContext) {
        texts = getRuntimeContext().getMapState(new MapStateDescriptor<>("known-passage-texts", Types.STRING,
                Types.STRING));
        holders = getRuntimeContext().getMapState(new MapStateDescriptor<>("known-passages-by-word", Types.STRING,
                Types.OBJECT_ARRAY(Types.STRING)));
        held = getRuntimeContext().getState(new ValueStateDescriptor<>("known-passage-count", Types.INT));
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("known_passages");
        passagesLearned = group.counter("learned");
        // past the cap: the second opinion sees less of the knowledge base than it could (raise the cap)
        passagesNotKept = group.counter("not_kept");
    }

    @Override
    public void processElement(Run run, Context ctx, Collector<Run> out) throws Exception {
        Map<String, String> handed = handed(run);
        int known = held.value() == null ? 0 : held.value();
        KnownPassages opinion = known == 0 || run.incomplete() || run.question() == null
                ? null : lookUp(run.question(), handed, known);
        learn(handed, known);
        out.collect(opinion == null ? run : run.withKnownPassages(opinion));
    }

    private KnownPassages lookUp(String question, Map<String, String> handed, int known) throws Exception {
        Map<String, Double> weights = new LinkedHashMap<>();
        Map<String, Double> byCandidate = new HashMap<>();
        for (String word : QuestionMatch.words(question)) {
            String[] ids = holders.get(word);
            int holding = ids == null ? 0 : ids.length;
            double weight = QuestionMatch.weight(holding, known);
            weights.put(word, weight);
            if (ids != null && holding < COMMON_WORD) {
                for (String id : ids) {
                    if (!handed.containsKey(id)) {
                        byCandidate.merge(id, weight, Double::sum);
                    }
                }
            }
        }
        if (weights.isEmpty()) {
            return null;
        }
        QuestionMatch match = new QuestionMatch(weights);
        double returned = 0;
        for (String text : handed.values()) {
            returned = Math.max(returned, match.of(QuestionMatch.words(text)));
        }
        List<Passage> unreturned = new ArrayList<>();
        List<Map.Entry<String, Double>> candidates = new ArrayList<>(byCandidate.entrySet());
        candidates.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry::getKey));
        for (Map.Entry<String, Double> c : candidates.subList(0, Math.min(CANDIDATES, candidates.size()))) {
            String text = texts.get(c.getKey());
            if (text != null) {
                unreturned.add(new Passage(c.getKey(), text, match.of(QuestionMatch.words(text)), null));
            }
        }
        unreturned.sort(Comparator.comparing(Passage::score).reversed().thenComparing(Passage::id));
        List<Passage> best = new ArrayList<>();
        for (Passage p : unreturned.subList(0, Math.min(UNRETURNED, unreturned.size()))) {
            best.add(p.withRank(best.size() + 1));
        }
        return new KnownPassages(known, returned, best);
    }

    private void learn(Map<String, String> handed, int known) throws Exception {
        int count = known;
        for (Map.Entry<String, String> p : handed.entrySet()) {
            if (texts.contains(p.getKey())) {
                continue;
            }
            if (count >= maxPassages) {
                passagesNotKept.inc();
                continue;
            }
            texts.put(p.getKey(), p.getValue());
            for (String word : QuestionMatch.words(p.getValue())) {
                String[] ids = holders.get(word);
                if (ids == null) {
                    holders.put(word, new String[] {p.getKey()});
                } else if (ids.length < COMMON_WORD) {
                    String[] more = Arrays.copyOf(ids, ids.length + 1);
                    more[ids.length] = p.getKey();
                    holders.put(word, more);
                }
            }
            count++;
            passagesLearned.inc();
        }
        if (count != known) {
            held.update(count);
        }
    }

    /** Every passage the run was handed, by id: retrieved, given to the reranker, kept by it, put in the prompt. */
    static Map<String, String> handed(Run run) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Passage p : RunTexts.allPassages(run)) {
            if (p.id() != null && p.text() != null && !p.text().isBlank()) {
                out.putIfAbsent(p.id(), p.text());
            }
        }
        return out;
    }
}
