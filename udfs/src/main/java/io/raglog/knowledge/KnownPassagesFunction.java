package io.raglog.knowledge;

import io.raglog.checks.RunTexts;
import io.raglog.drift.IndexEmbedding;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.KnownPassages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.types.Either;
import org.apache.flink.util.Collector;

/**
 * Keyed by pipeline: keeps the passages the pipeline's knowledge base holds, as raglog sees it (the passages its runs
 * were handed, first input, and the documents its index-building calls embedded, second input), and gives each run a
 * second opinion on its retrieval: the known passages it was not handed that match its question best, and how well
 * what it was handed matches ({@link KnownPassages}). A known passage that matches the question far better than
 * anything returned says retrieval missed it; a question nothing known matches says the knowledge base may not hold
 * the answer at all, which is a gap for the content's owner, not a retrieval fault. Where the pipeline's indexing
 * goes through raglog, the second opinion knows the documents before any run is handed them.
 *
 * <p>State per pipeline: each passage's text (and the store's id for it, once a run was handed it) by
 * {@link PassageKey}, its text's key, so a document seen at indexing and a passage a run was handed are one passage.
 * Beside it, on the heap, an inverted index from each word to the passages holding it ({@link WordIndex}), derived
 * from those texts and rebuilt from them when a pipeline is first read after a restore. A word held by
 * {@link #COMMON_WORD} passages or more stops collecting them: it says little about any one passage, and its list
 * would grow with the corpus. At most {@code maxPassages} passages are kept; later ones are counted, not stored. The
 * run is looked up before its own passages are added, so what it was handed never competes with itself.
 *
 * <p>The key is the pipeline, so one subtask serves all of a pipeline's runs: a lookup sums its question words' lists
 * and reads from state the texts of the two passages it gives the run, far below the checks' cost per run.
 */
public class KnownPassagesFunction
        extends KeyedCoProcessFunction<String, Run, IndexBuildingCall, Either<Run, IndexEmbedding>> {

    private static final long serialVersionUID = 1L;

    /**
     * Each run, with its second opinion, and each index-building call's model and dimension, in the order they came:
     * the embedding-drift check after this reads both, as one input, so that it runs in this task (a second input
     * would put a network hand-over of every run between the two).
     */
    public static final TypeInformation<Either<Run, IndexEmbedding>> OUTPUT =
            new EitherTypeInfo<>(JacksonTypeInfo.of(Run.class), JacksonTypeInfo.of(IndexEmbedding.class));

    /** Passages kept per pipeline by default: a large help centre's worth of chunks. */
    public static final int DEFAULT_MAX_PASSAGES = 100_000;
    /** Passages a word's list holds at most; more, and the word is too common to point anywhere. */
    static final int COMMON_WORD = 2_000;
    /** Unreturned passages a run is given. */
    static final int UNRETURNED = 2;
    /** The id an unreturned passage no run was handed is given: its text's key, after this. */
    static final String INDEXED_ID_PREFIX = "indexed:";
    /** Candidates (by their rare words) whose texts are read and matched exactly. */
    private static final int CANDIDATES = 16;
    /** Between the store's id (empty when only indexing showed the passage) and the text in a stored value. */
    private static final char ID_END = '\u0000';

    /** Each candidate's text read and its words stemmed, as before {@link WordIndex} kept them: only for tests. */
    private final boolean matchFromTexts;
    private final int maxPassages;

    private transient MapState<String, String> passages;
    /** Each word's passage keys, as releases before {@link WordIndex} kept them: emptied as each pipeline is read. */
    private transient MapState<String, String[]> formerWordLists;
    /** Per pipeline key of this subtask; transient, rebuilt from {@link #passages} on first use. */
    private transient Map<String, WordIndex> indexes;
    /** A lookup's scratch, reused: each candidate's summed weight, by passage number. */
    private transient double[] sums;
    private transient BitSet summed;
    private transient BitSet excluded;
    private transient Candidates candidates;
    private transient ValueState<Integer> held;
    private transient Counter passagesLearned;
    private transient Counter passagesIndexed;
    private transient Counter passagesNotKept;

    public KnownPassagesFunction() {
        this(DEFAULT_MAX_PASSAGES);
    }

    public KnownPassagesFunction(int maxPassages) {
        this(maxPassages, false);
    }

    /** @param matchFromTexts true matches every candidate from its text: for tests that compare the two */
    KnownPassagesFunction(int maxPassages, boolean matchFromTexts) {
        if (maxPassages < 1) {
            throw new IllegalArgumentException("known passages per pipeline must be >= 1, was " + maxPassages);
        }
        this.maxPassages = maxPassages;
        this.matchFromTexts = matchFromTexts;
    }

    @Override
    public void open(OpenContext openContext) {
        // keyed by text since passages from index-building calls came in: a savepoint from before starts them afresh
        passages = getRuntimeContext().getMapState(new MapStateDescriptor<>("known-passages-by-text", Types.STRING,
                Types.STRING));
        formerWordLists = getRuntimeContext().getMapState(new MapStateDescriptor<>("known-passage-keys-by-word",
                Types.STRING, Types.OBJECT_ARRAY(Types.STRING)));
        indexes = new HashMap<>();
        sums = new double[0];
        summed = new BitSet();
        excluded = new BitSet();
        candidates = new Candidates();
        held = getRuntimeContext().getState(new ValueStateDescriptor<>("known-passages-held", Types.INT));
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("known_passages");
        passagesLearned = group.counter("learned");
        passagesIndexed = group.counter("learned_from_index_building");
        // past the cap: the second opinion sees less of the knowledge base than it could (raise the cap)
        passagesNotKept = group.counter("not_kept");
    }

    @Override
    public void processElement1(Run run, Context ctx, Collector<Either<Run, IndexEmbedding>> out) throws Exception {
        WordIndex index = index(ctx.getCurrentKey());
        Map<String, Passage> handed = handed(run);
        int known = held.value() == null ? 0 : held.value();
        KnownPassages opinion = known == 0 || run.incomplete() || run.question() == null
                ? null : lookUp(index, run.question(), handed, known);
        int now = known;
        for (Map.Entry<String, Passage> p : handed.entrySet()) {
            now = learn(index, p.getKey(), p.getValue().id(), p.getValue().text(), now);
        }
        if (now != known) {
            held.update(now);
        }
        out.collect(Either.Left(opinion == null ? run : run.withKnownPassages(opinion)));
    }

    @Override
    public void processElement2(IndexBuildingCall call, Context ctx, Collector<Either<Run, IndexEmbedding>> out)
            throws Exception {
        if (call.embedding() != null) {
            out.collect(Either.Right(call.embedding()));
        }
        if (call.documents() != null) {
            learnIndexed(index(ctx.getCurrentKey()), call.documents());
        }
    }

    /**
     * The pipeline's word index, built from its passages in state when this instance first reads the pipeline (a
     * start, a restore, a rescale): one pass over the texts, once.
     */
    private WordIndex index(String pipeline) throws Exception {
        WordIndex index = indexes.get(pipeline);
        if (index == null) {
            index = new WordIndex(COMMON_WORD);
            for (Map.Entry<String, String> p : passages.entries()) {
                String stored = p.getValue();
                int end = stored.indexOf(ID_END);
                index.add(p.getKey(), end == 0 ? null : stored.substring(0, end), QuestionMatch.words(textOf(stored)));
            }
            if (!formerWordLists.isEmpty()) {
                formerWordLists.clear(); // what the index now holds, as an earlier release kept it in state
            }
            indexes.put(pipeline, index);
        }
        return index;
    }

    private void learnIndexed(WordIndex index, IndexedPassages indexed) throws Exception {
        int known = held.value() == null ? 0 : held.value();
        int now = known;
        for (String text : indexed.texts()) {
            now = learn(index, PassageKey.of(text), null, text, now);
        }
        if (now != known) {
            passagesIndexed.inc(now - known);
            held.update(now);
        }
    }

    private KnownPassages lookUp(WordIndex index, String question, Map<String, Passage> handed, int known)
            throws Exception {
        Map<String, Double> weights = new LinkedHashMap<>();
        if (sums.length < index.size()) {
            sums = new double[Math.max(index.size(), sums.length * 2)];
        }
        for (String key : handed.keySet()) {
            int number = index.number(key);
            if (number >= 0) {
                excluded.set(number);
            }
        }
        candidates.reset(index);
        Set<String> questionWords = QuestionMatch.words(question);
        // each question word's number, in the order the match adds them: looked up once, for its list and its match
        int[] wordNumbers = new int[questionWords.size()];
        int w = 0;
        for (String word : questionWords) {
            int wordNumber = index.wordNumber(word);
            wordNumbers[w++] = wordNumber;
            int holding = index.holding(wordNumber);
            double weight = QuestionMatch.weight(holding, known);
            weights.put(word, weight);
            // a common word's passages are not listed: it weighs little, and any candidate may hold it (the match
            // below counts it)
            if (holding > 0 && holding < COMMON_WORD) {
                int[] listed = index.listed(wordNumber);
                for (int i = 0; i < holding; i++) {
                    int number = listed[i];
                    if (excluded.get(number)) {
                        continue;
                    }
                    if (summed.get(number)) {
                        sums[number] += weight;
                    } else {
                        summed.set(number);
                        sums[number] = weight;
                        candidates.touched(number);
                    }
                }
            }
        }
        int[] read = candidates.best(sums, CANDIDATES);
        summed.clear();
        excluded.clear();
        if (weights.isEmpty()) {
            return null;
        }
        QuestionMatch match = new QuestionMatch(weights);
        double returned = 0;
        for (Passage p : handed.values()) {
            returned = Math.max(returned, match.of(QuestionMatch.words(p.text())));
        }
        List<Passage> unreturned = matchFromTexts
                ? everyCandidate(index, read, match) : bestCandidates(index, read, match, wordNumbers);
        unreturned.sort(Comparator.comparing(Passage::score).reversed().thenComparing(Passage::id));
        List<Passage> best = new ArrayList<>();
        for (Passage p : unreturned.subList(0, Math.min(UNRETURNED, unreturned.size()))) {
            best.add(p.withRank(best.size() + 1));
        }
        return new KnownPassages(known, returned, best);
    }

    /**
     * The {@link #UNRETURNED} best candidates, each matched from the index's words for it and ordered with its id on
     * the heap; only their texts are read from state.
     */
    private List<Passage> bestCandidates(WordIndex index, int[] read, QuestionMatch match, int[] wordNumbers)
            throws Exception {
        List<Candidate> matched = new ArrayList<>(read.length);
        for (int number : read) {
            matched.add(new Candidate(number, index.id(number), index.key(number),
                    match.ofKnown(index, wordNumbers, number)));
        }
        matched.sort(Comparator.comparingDouble(Candidate::score).reversed().thenComparing(Candidate::compareIds));
        List<Passage> kept = new ArrayList<>(UNRETURNED);
        for (Candidate c : matched) {
            if (kept.size() == UNRETURNED) {
                break;
            }
            String stored = passages.get(index.key(c.number()));
            if (stored != null) {
                kept.add(new Passage(c.id(), textOf(stored), c.score(), null));
            }
        }
        return kept;
    }

    /**
     * A known passage matched, before its text is read: its id (as {@link #idOf(String, String)} reads it from the
     * stored value) is made only for the two kept, and compared without being made (a concatenation per candidate, 16
     * a lookup, was a twentieth of a lookup at 20,000 indexed passages, JFR).
     *
     * @param storeId the store's id, null when only indexing showed the passage
     */
    private record Candidate(int number, String storeId, String key, double score) {

        /** As {@link #idOf(String, String)} reads it from the stored value. */
        String id() {
            return storeId != null ? storeId : INDEXED_ID_PREFIX + key;
        }

        /** As {@code id().compareTo(other.id())} orders them. */
        int compareIds(Candidate other) {
            return KnownPassagesFunction.compareIds(storeId, key, other.storeId, other.key);
        }
    }

    /**
     * Orders two passages' ids as {@code String.compareTo} does (the same sign), each the store's id or, when that is
     * null, {@link #INDEXED_ID_PREFIX} and the key, without concatenating them.
     */
    static int compareIds(String storeIdA, String keyA, String storeIdB, String keyB) {
        if (storeIdA != null && storeIdB != null) {
            return storeIdA.compareTo(storeIdB);
        }
        if (storeIdA == null && storeIdB == null) {
            return keyA.compareTo(keyB); // the same prefix before both
        }
        int lengthA = storeIdA != null ? storeIdA.length() : INDEXED_ID_PREFIX.length() + keyA.length();
        int lengthB = storeIdB != null ? storeIdB.length() : INDEXED_ID_PREFIX.length() + keyB.length();
        for (int i = 0, n = Math.min(lengthA, lengthB); i < n; i++) {
            char a = idChar(storeIdA, keyA, i);
            char b = idChar(storeIdB, keyB, i);
            if (a != b) {
                return a - b;
            }
        }
        return lengthA - lengthB;
    }

    private static char idChar(String storeId, String key, int i) {
        if (storeId != null) {
            return storeId.charAt(i);
        }
        int prefix = INDEXED_ID_PREFIX.length();
        return i < prefix ? INDEXED_ID_PREFIX.charAt(i) : key.charAt(i - prefix);
    }

    /** Every candidate, its text read from state and matched from its words: the reference for tests. */
    private List<Passage> everyCandidate(WordIndex index, int[] read, QuestionMatch match) throws Exception {
        List<Passage> all = new ArrayList<>();
        for (int number : read) {
            String key = index.key(number);
            String stored = passages.get(key);
            if (stored != null) {
                String text = textOf(stored);
                all.add(new Passage(idOf(key, stored), text, match.of(QuestionMatch.words(text)), null));
            }
        }
        return all;
    }

    /**
     * Learns one passage (the store's id null when only indexing showed it); a passage indexing showed first gets
     * its id when a run is handed it. Returns how many passages are held after.
     */
    private int learn(WordIndex index, String key, String id, String text, int known) throws Exception {
        boolean hasId = id != null && !id.isEmpty();
        int number = index.number(key);
        if (number >= 0) {
            if (hasId && index.id(number) == null) {
                passages.put(key, id + ID_END + text);
                index.setId(number, id);
                index.rewordPassage(number, QuestionMatch.words(text));
            }
            return known;
        }
        if (known >= maxPassages) {
            passagesNotKept.inc();
            return known;
        }
        passages.put(key, (id == null ? "" : id) + ID_END + text);
        index.add(key, hasId ? id : null, QuestionMatch.words(text));
        passagesLearned.inc();
        return known + 1;
    }

    private static String textOf(String stored) {
        return stored.substring(stored.indexOf(ID_END) + 1);
    }

    private static String idOf(String key, String stored) {
        int end = stored.indexOf(ID_END);
        return end == 0 ? INDEXED_ID_PREFIX + key : stored.substring(0, end);
    }

    /**
     * Every passage the run was handed (retrieved, given to the reranker, kept by it, put in the prompt), by its
     * text's key. A passage is taken as first seen: the part of a cut passage that reached the prompt comes under the
     * same id later, and is not a passage of its own.
     */
    static Map<String, Passage> handed(Run run) {
        Map<String, Passage> out = new LinkedHashMap<>();
        Set<String> ids = new HashSet<>();
        for (Passage p : RunTexts.allPassages(run)) {
            if (p.id() != null && p.text() != null && !p.text().isBlank() && ids.add(p.id())) {
                out.putIfAbsent(PassageKey.of(p.text()), p);
            }
        }
        return out;
    }
}
