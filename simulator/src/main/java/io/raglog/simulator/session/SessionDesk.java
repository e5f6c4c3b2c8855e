package io.raglog.simulator.session;

import io.raglog.schemas.LabelSession;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.pipeline.Rand;
import io.raglog.simulator.wire.Ids;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.DoubleFunction;
import java.util.function.Function;

/**
 * Decides who asks each run and what: a user whose next turn is due (the earliest, so concurrent sessions of one
 * pipeline interleave in time), else a new user. After an answer the user re-asks a paraphrase (more often when the
 * answer was wrong or a refusal), asks another question on the same paragraph or article, turns to something else, or
 * leaves. The turn's question is drawn here; the pipeline then answers it as any other.
 */
public final class SessionDesk {

    /** One turn: the question to ask and its place in the session (the label's ground truth, less the run id). */
    public record Turn(OpenSession session, String kind, Question question, String reaskOf, String previousRunId) {}

    /** A user between turns. */
    public static final class OpenSession {
        private final String user;
        private final String id;
        private int turns;
        private Question lastAsked;
        private Question lastOriginal;
        private String lastRunId;
        private String nextKind;
        private Instant nextDue;
        /** The questions asked so far, in plain form: a follow-up or a new topic is none of them. */
        private final java.util.Set<String> asked = new java.util.HashSet<>();

        OpenSession(String user, String id) {
            this.user = user;
            this.id = id;
        }

        public String user() {
            return user;
        }

        /** The session id the pipeline sends; null when none. */
        public String id() {
            return id;
        }

        public int turns() {
            return turns;
        }
    }

    private final SessionPlan plan;
    private final Function<String, String> articleOf;
    private final Map<String, List<Question>> byParagraph = new HashMap<>();
    private final Map<String, List<Question>> byArticle = new HashMap<>();
    private final Map<String, List<OpenSession>> open = new LinkedHashMap<>();
    private long users;

    /**
     * @param questions the split's questions: follow-ups are drawn from these only, so a split's sessions never leave
     *     its articles
     * @param articleOf the article of a paragraph (document) id
     */
    public SessionDesk(SessionPlan plan, List<Question> questions, Function<String, String> articleOf) {
        this.plan = plan;
        this.articleOf = articleOf;
        for (Question q : questions) {
            String paragraph = q.relevantDocIds().get(0);
            byParagraph.computeIfAbsent(paragraph, k -> new ArrayList<>()).add(q);
            byArticle.computeIfAbsent(articleOf.apply(paragraph), k -> new ArrayList<>()).add(q);
        }
    }

    /** The turn asked of {@code pipeline} at {@code arrival}. */
    public Turn next(String pipeline, Instant arrival, SplittableRandom rng, DoubleFunction<Question> freshQuestion) {
        List<OpenSession> sessions = open.computeIfAbsent(pipeline, k -> new ArrayList<>());
        OpenSession due = null;
        for (OpenSession s : sessions) {
            if (!s.nextDue.isAfter(arrival) && (due == null || s.nextDue.isBefore(due.nextDue))) {
                due = s;
            }
        }
        if (due == null) {
            users++;
            boolean silent = plan.silentPipelines().contains(pipeline) || Rand.chance(rng, plan.noSessionShare());
            OpenSession s = new OpenSession("u-" + users, silent ? null : "s-" + Ids.hex(rng, 16));
            Question q = freshQuestion.apply(rng.nextDouble());
            return begin(s, LabelSession.FIRST, q, q, null);
        }
        sessions.remove(due);
        return switch (due.nextKind) {
            case LabelSession.REASK -> {
                // Said again in other words: of the question as first put, or of the last wording when that failed too.
                Question source = Rand.chance(rng, 0.6) ? due.lastOriginal : due.lastAsked;
                Question asked = reworded(due.lastOriginal, UserParaphraser.rephrase(source.question(), rng));
                yield begin(due, LabelSession.REASK, asked, due.lastOriginal, due.lastRunId);
            }
            case LabelSession.FOLLOW_UP -> {
                Question q = followUp(due, rng);
                yield q == null ? fresh(due, rng, freshQuestion) : begin(due, LabelSession.FOLLOW_UP, q, q, null);
            }
            default -> fresh(due, rng, freshQuestion);
        };
    }

    /**
     * What the user does after the answer: the next turn's kind and when it is due, or the end of the session.
     *
     * @param badAnswer wrong, or a refusal: the user did not get what they asked for
     */
    public void answered(Turn turn, String runId, Instant arrival, boolean badAnswer, String pipeline,
            SplittableRandom rng) {
        OpenSession s = turn.session();
        s.lastRunId = runId;
        if (s.turns >= plan.maxTurns() || Rand.chance(rng, plan.endAfterTurn() * (badAnswer ? 0.6 : 1.0))) {
            return;
        }
        double reask = badAnswer ? plan.reaskAfterBadAnswer() : plan.reaskAfterGoodAnswer();
        double draw = rng.nextDouble();
        s.nextKind = draw < reask ? LabelSession.REASK
                : draw < reask + (1 - reask) * plan.followUp() ? LabelSession.FOLLOW_UP : LabelSession.NEW_TOPIC;
        // Re-asks come quickly, straight after reading the answer; other questions after a while.
        double median = plan.thinkSeconds() * (LabelSession.REASK.equals(s.nextKind) ? 0.6 : 1.5);
        double seconds = Rand.logNormal(rng, median, 0.6);
        s.nextDue = arrival.plus(Duration.ofMillis(Math.round(seconds * 1000)));
        open.computeIfAbsent(pipeline, k -> new ArrayList<>()).add(s);
    }

    /** Users whose next turn is still to come. */
    public int openSessions() {
        return open.values().stream().mapToInt(List::size).sum();
    }

    private Turn fresh(OpenSession s, SplittableRandom rng, DoubleFunction<Question> freshQuestion) {
        Question q = freshQuestion.apply(rng.nextDouble());
        if (s.asked.contains(plain(q.question()))) {
            q = freshQuestion.apply(rng.nextDouble()); // the pool's duplicate of what they asked: not a new topic
        }
        return begin(s, LabelSession.NEW_TOPIC, q, q, null);
    }

    private Turn begin(OpenSession s, String kind, Question asked, Question original, String reaskOf) {
        String previous = s.lastRunId;
        s.turns++;
        s.asked.add(plain(original.question()));
        s.lastAsked = asked;
        s.lastOriginal = original;
        return new Turn(s, kind, asked, reaskOf, previous);
    }

    /** Another question of the same paragraph (mostly) or article, not asked yet; null when there is none. */
    private Question followUp(OpenSession s, SplittableRandom rng) {
        Question of = s.lastOriginal;
        String paragraph = of.relevantDocIds().get(0);
        List<Question> near = byParagraph.getOrDefault(paragraph, List.of());
        List<Question> candidates = new ArrayList<>();
        if (Rand.chance(rng, 0.7)) {
            near.stream().filter(q -> another(q, of) && !s.asked.contains(plain(q.question())))
                    .forEach(candidates::add);
        }
        if (candidates.isEmpty()) {
            byArticle.getOrDefault(articleOf.apply(paragraph), List.of()).stream()
                    .filter(q -> another(q, of) && !s.asked.contains(plain(q.question()))).forEach(candidates::add);
        }
        return candidates.isEmpty() ? null : Rand.pick(rng, candidates);
    }

    /** Another question, not one the corpus holds twice under two ids (SQuAD has such duplicates). */
    private static boolean another(Question q, Question of) {
        return !q.questionId().equals(of.questionId()) && !plain(q.question()).equals(plain(of.question()));
    }

    private static String plain(String text) {
        return text.toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }

    /** The same question in the user's new words: its gold truth unchanged, so the run is labeled as any other. */
    private static Question reworded(Question q, String text) {
        return new Question(q.questionId(), text, q.answerable(), q.relevantDocIds(), q.expectedAnswer(),
                q.acceptableAnswers(), q.answerStarts(), q.plausibleAnswers());
    }
}
