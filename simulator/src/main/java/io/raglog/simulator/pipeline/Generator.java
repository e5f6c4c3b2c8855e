package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.AnswerMatch;
import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Sentences;
import io.raglog.simulator.text.TermStats;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The generator model: answers extractively from the passages it was given, abstains when the evidence is missing,
 * and sometimes answers anyway — from memory (right, but unsupported: the seeds' silent failure) or from a passage
 * that does not hold the answer. Also its injected faults.
 */
public final class Generator {

    /** Candidate answer spans: runs of capitalised words (with "of"/"the" inside) and numbers with their units. */
    private static final Pattern PHRASE = Pattern.compile(
            "\\b(?:[A-Z][\\p{L}'’-]+(?:\\s+(?:of\\s+|the\\s+|de\\s+)*[A-Z][\\p{L}'’-]+)*"
                    + "|\\d[\\d,.]*(?:\\s+(?:million|billion|percent|years|km|miles|people))?)");
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:[,.]\\d+)*");
    /** The longest sentence a model gives whole as its answer; past it, the span. */
    private static final int MAX_SENTENCE_ANSWER = 400;
    private static final Pattern PARTS = Pattern.compile("\\s*,\\s*(?:and\\s+|or\\s+)?|\\s+(?:and|or)\\s+");

    private final TermStats stats;
    private final Vocabulary vocabulary;

    public Generator(TermStats stats, Vocabulary vocabulary) {
        this.stats = stats;
        this.vocabulary = vocabulary;
    }

    /**
     * @param evidence the chunks holding the reference answer
     * @param topic the chunks of the question's documents (what tempts a model on an unanswerable question)
     * @param refusals the ways this pipeline's model says it does not know (its prompt and its habits)
     */
    public Answer answer(Question q, List<Chunk> context, Set<Chunk> evidence, Set<Chunk> topic, GeneratorSkill skill,
            List<String> refusals, SplittableRandom rng) {
        String abstention = Rand.pick(rng, refusals);
        Chunk evidenceInContext = first(context, evidence);
        if (q.answerable() && evidenceInContext != null) {
            double roll = rng.nextDouble();
            if (roll < skill.falseAbstention()) {
                return new Answer(abstention, true, new Fault(FaultType.GENERATE_FALSE_ABSTENTION,
                        "the evidence (" + evidenceInContext.chunkId() + ") was in the context, yet the model said it"
                                + " did not know"));
            }
            if (roll < skill.falseAbstention() + skill.wrongSpan()) {
                String wrong = guess(q, context, skill, rng);
                if (wrong != null) {
                    return new Answer(wrong, false, new Fault(FaultType.GENERATE_WRONG_ANSWER,
                            "the evidence (" + evidenceInContext.chunkId() + ") was in the context, yet the model"
                                    + " answered \"" + wrong + "\""));
                }
            }
            return new Answer(statement(q, evidenceInContext, skill, rng), false, null);
        }
        if (q.answerable()) {
            double roll = rng.nextDouble();
            if (roll < skill.parametricAnswer()) {
                String remembered = sentenceCase(q.expectedAnswer());
                return new Answer(remembered, false, new Fault(FaultType.GENERATE_UNSUPPORTED_CLAIM,
                        "the answer \"" + remembered + "\" is not supported by any passage in the context"));
            }
            if (roll < skill.parametricAnswer() + skill.guessWithoutEvidence()) {
                String wrong = guess(q, context, skill, rng);
                if (wrong != null) {
                    return new Answer(wrong, false, new Fault(FaultType.GENERATE_UNSUPPORTED_CLAIM,
                            "no passage in the context answers the question, yet the model answered \"" + wrong
                                    + "\""));
                }
            }
            return new Answer(abstention, true, null);
        }
        boolean tempted = first(context, topic) != null;
        double p = tempted ? skill.answersUnanswerable() : skill.guessWithoutEvidence() / 2;
        if (Rand.chance(rng, p)) {
            String wrong = tempted && !q.plausibleAnswers().isEmpty()
                    ? inStyle(Rand.pick(rng, q.plausibleAnswers()), context, skill, rng)
                    : guess(q, context, skill, rng);
            if (wrong != null) {
                return new Answer(wrong, false, new Fault(FaultType.GENERATE_ANSWERED_UNANSWERABLE,
                        "the context cannot answer the question, yet the model answered \"" + wrong + "\""));
            }
        }
        return new Answer(abstention, true, null);
    }

    /** Injects a generator fault; every run admits at least an unsupported claim or an ignored context. */
    public Injection<Answer> inject(Question q, Answer base, List<Chunk> context, String title, SplittableRandom rng) {
        String contextText = joined(context);
        List<FaultType> options = new ArrayList<>(
                List.of(FaultType.GENERATE_UNSUPPORTED_CLAIM, FaultType.GENERATE_IGNORED_CONTEXT));
        String swapped = base.abstained() ? null : swap(q, base.text(), context, rng);
        if (swapped != null) {
            options.add(FaultType.GENERATE_SWAPPED_FACT);
        }
        String omitted = base.abstained() || !q.answerable() ? null : omitPart(q, base.text());
        if (omitted != null) {
            options.add(FaultType.GENERATE_OMITTED_PART);
        }
        FaultType type = Rand.pick(rng, options);
        switch (type) {
            case GENERATE_SWAPPED_FACT:
                return new Injection<>(new Answer(swapped, false, null), new Fault(type,
                        "the answer swapped a fact: \"" + base.text() + "\" became \"" + swapped + "\""));
            case GENERATE_OMITTED_PART:
                return new Injection<>(new Answer(omitted, false, null), new Fault(type,
                        "the answer left out part of \"" + q.expectedAnswer() + "\": \"" + omitted + "\""));
            case GENERATE_IGNORED_CONTEXT: {
                String ignored = ignoreContext(q, title, rng);
                return new Injection<>(new Answer(ignored, false, null),
                        new Fault(type, "the answer ignored the context: \"" + ignored + "\""));
            }
            default: {
                String claim = fabricate(q, title, contextText, rng);
                String text = base.abstained() ? claim : base.text() + " " + claim;
                return new Injection<>(new Answer(text, false, null),
                        new Fault(type, "the answer added a claim no passage supports: \"" + claim + "\""));
            }
        }
    }

    /** The model's answer when the evidence is there: the span, or the whole sentence that holds it. */
    private static String statement(Question q, Chunk evidence, GeneratorSkill skill, SplittableRandom rng) {
        String span = null;
        for (String accepted : q.acceptableAnswers()) {
            if (evidence.text().contains(accepted)) {
                span = accepted;
                break;
            }
        }
        if (span == null) {
            span = q.expectedAnswer();
        }
        return inStyle(span, List.of(evidence), skill, rng);
    }

    /**
     * A span the model settled on, said as it says its answers, right or wrong: the sentence of {@code chunks} that
     * holds it as often as it answers in whole sentences (when one does), else the span.
     */
    private static String inStyle(String span, List<Chunk> chunks, GeneratorSkill skill, SplittableRandom rng) {
        if (Rand.chance(rng, skill.sentenceAnswers())) {
            for (Chunk c : chunks) {
                for (String sentence : Sentences.of(c.text())) {
                    if (AnswerMatch.contains(sentence, List.of(span)) && sentence.length() <= MAX_SENTENCE_ANSWER) {
                        return sentence;
                    }
                }
            }
        }
        return sentenceCase(span);
    }

    /**
     * An answer taken from the passage sentence that best matches the question but does not hold the answer: a span
     * of it, or the sentence whole as often as this model answers in whole sentences when it is right. A model's
     * style is its own, not its mistakes': were wrong answers always bare spans, a whole sentence would tell a right
     * answer by its form.
     */
    private String guess(Question q, List<Chunk> context, GeneratorSkill skill, SplittableRandom rng) {
        Set<String> questionStems = new HashSet<>(Words.contentStems(q.question()));
        String best = null;
        double bestScore = -1;
        for (Chunk c : context) {
            for (String sentence : Sentences.of(c.text())) {
                if (q.answerable() && AnswerMatch.contains(sentence, q.acceptableAnswers())) {
                    continue;
                }
                double score = 0;
                for (String stem : new HashSet<>(Words.contentStems(sentence))) {
                    if (questionStems.contains(stem)) {
                        score += stats.idf(stem);
                    }
                }
                if (score > bestScore) {
                    bestScore = score;
                    best = sentence;
                }
            }
        }
        if (best == null) {
            return null;
        }
        if (Rand.chance(rng, skill.sentenceAnswers()) && best.length() <= MAX_SENTENCE_ANSWER) {
            return best;
        }
        String lowerQuestion = q.question().toLowerCase(Locale.ROOT);
        List<String> spans = new ArrayList<>();
        Matcher m = PHRASE.matcher(best);
        while (m.find()) {
            String span = m.group();
            boolean sentenceInitialWord = m.start() == 0 && !span.contains(" ") && !span.matches("\\d.*");
            if (!sentenceInitialWord && !lowerQuestion.contains(span.toLowerCase(Locale.ROOT)) && !Words.isStopword(span)
                    && !(q.answerable() && AnswerMatch.contains(span, q.acceptableAnswers()))) {
                spans.add(span);
            }
        }
        return spans.isEmpty() ? best : sentenceCase(Rand.pick(rng, spans));
    }

    private String swap(Question q, String answer, List<Chunk> context, SplittableRandom rng) {
        Matcher number = NUMBER.matcher(answer);
        List<String> candidates = new ArrayList<>();
        while (number.find()) {
            String digits = number.group();
            String other = otherNumber(digits, answer, context, rng);
            candidates.add(answer.substring(0, number.start()) + other + answer.substring(number.end()));
        }
        if (candidates.isEmpty()) {
            // A short answer is a span, so its capitalised words are names; in a sentence only mid-sentence ones are.
            List<String> names = new ArrayList<>(KeyTerms.midSentenceNames(answer));
            List<String> tokens = Words.tokens(answer);
            if (tokens.size() <= 6) {
                // The first word is capitalised by the answer itself; it is a name only if the passages say so.
                List<String> contextNames = KeyTerms.midSentenceNames(joined(context));
                for (KeyTerms.Term term : KeyTerms.of(answer)) {
                    boolean first = term.text().equals(tokens.get(0));
                    if (term.kind() == KeyTerms.Kind.NAME && !names.contains(term.text())
                            && (!first || contextNames.contains(term.text()))) {
                        names.add(term.text());
                    }
                }
            }
            for (String name : names) {
                candidates.add(TextEdits.replaceWord(answer, name, otherNameFrom(context, answer, rng)));
            }
        }
        for (String candidate : candidates) {
            boolean stillRight = q.answerable() && AnswerMatch.contains(candidate, q.acceptableAnswers());
            if (!candidate.equals(answer) && !stillRight) {
                return candidate;
            }
        }
        return null;
    }

    /** A name from the passages the model read (the likeliest mix-up), else one from elsewhere in the corpus. */
    private String otherNameFrom(List<Chunk> context, String answer, SplittableRandom rng) {
        List<String> names = new ArrayList<>();
        for (Chunk c : context) {
            for (String name : KeyTerms.midSentenceNames(c.text())) {
                if (!answer.contains(name) && !names.contains(name)) {
                    names.add(name);
                }
            }
        }
        return names.isEmpty() ? vocabulary.otherName("", rng) : Rand.pick(rng, names);
    }

    /**
     * A wrong number of the same kind, as a model mixes them up: a year for a year, a number of as many digits, taken
     * first from the other passages in its context, then from elsewhere in the corpus; a shifted value only when
     * neither has one.
     */
    private String otherNumber(String digits, String answer, List<Chunk> context, SplittableRandom rng) {
        String plain = digits.replace(",", "");
        boolean year = KeyTerms.isYear(plain);
        List<String> near = new ArrayList<>();
        for (Chunk c : context) {
            Matcher m = NUMBER.matcher(c.text());
            while (m.find()) {
                String other = m.group().replace(",", "");
                boolean sameKind = year ? KeyTerms.isYear(other)
                        : !KeyTerms.isYear(other) && other.length() == plain.length() && !other.contains(".");
                if (sameKind && !other.equals(plain) && !answer.contains(other) && !near.contains(other)) {
                    near.add(other);
                }
            }
        }
        String picked = !near.isEmpty() && rng.nextDouble() < 0.7 ? Rand.pick(rng, near)
                : plain.contains(".") ? null : year ? vocabulary.otherYear(plain, rng) : vocabulary.otherNumber(plain, rng);
        if (picked == null) {
            picked = shifted(plain, rng);
        }
        if (digits.contains(",") && !picked.contains(".") && picked.length() > 3) {
            return String.format(Locale.ROOT, "%,d", Long.parseLong(picked));
        }
        return picked;
    }

    private static String shifted(String plain, SplittableRandom rng) {
        if (plain.contains(".")) {
            double v = Double.parseDouble(plain);
            return String.format(Locale.ROOT, "%.1f", v * (1.2 + rng.nextDouble()));
        }
        long v = plain.length() > 15 ? 1000 : Long.parseLong(plain);
        long shifted = v + Math.max(1, (long) (v * (0.1 + 0.6 * rng.nextDouble()))) * (rng.nextBoolean() ? 1 : -1);
        if (shifted <= 0) {
            shifted = v + 1 + rng.nextInt(9);
        }
        return Long.toString(shifted);
    }

    private static String omitPart(Question q, String answer) {
        for (String accepted : q.acceptableAnswers()) {
            if (!answer.contains(accepted)) {
                continue;
            }
            String[] parts = PARTS.split(accepted);
            List<String> nonEmpty = new ArrayList<>();
            for (String p : parts) {
                if (!p.isBlank()) {
                    nonEmpty.add(p.strip());
                }
            }
            if (nonEmpty.size() < 2) {
                continue;
            }
            String partial = answer.replace(accepted, nonEmpty.get(0));
            if (!AnswerMatch.contains(partial, q.acceptableAnswers())) {
                return partial;
            }
        }
        return null;
    }

    private String ignoreContext(Question q, String title, SplittableRandom rng) {
        for (int attempt = 0; attempt < 4; attempt++) {
            String sentence = vocabulary.unrelatedSentence(title, rng);
            List<String> spans = new ArrayList<>();
            Matcher m = PHRASE.matcher(sentence);
            while (m.find()) {
                boolean sentenceInitialWord = m.start() == 0 && !m.group().contains(" ");
                if (!sentenceInitialWord && !Words.isStopword(m.group())) {
                    spans.add(m.group());
                }
            }
            String answer = spans.isEmpty() ? sentence : sentenceCase(Rand.pick(rng, spans));
            if (!(q.answerable() && AnswerMatch.contains(answer, q.acceptableAnswers()))) {
                return answer;
            }
        }
        return "It is generally agreed that the answer is unknown.";
    }

    private static final List<String> CONNECTORS = List.of("", "", "Additionally, ", "Notably, ", "In addition, ",
            "It is also worth noting that ", "Moreover, ");

    /**
     * A confident claim the context does not support: a factual sentence from a passage about something else, said
     * of the question's subject when it names one (its own subject swapped out), joined on as models do.
     */
    private String fabricate(Question q, String title, String contextText, SplittableRandom rng) {
        String subject = null;
        for (KeyTerms.Term t : KeyTerms.of(q.question())) {
            if (t.kind() == KeyTerms.Kind.NAME) {
                subject = t.text();
                break;
            }
        }
        Set<String> contextStems = new HashSet<>(Words.contentStems(contextText));
        String fallback = null;
        for (int attempt = 0; attempt < 12; attempt++) {
            String sentence = vocabulary.unrelatedSentence(title, rng).strip();
            if (sentence.length() < 40 || sentence.length() > 240 || KeyTerms.of(sentence).isEmpty()) {
                continue;
            }
            String claim = sentence;
            List<String> names = KeyTerms.midSentenceNames(sentence);
            List<String> tokens = Words.tokens(sentence);
            String lead = tokens.isEmpty() ? null : tokens.get(0);
            if (subject != null && lead != null && KeyTerms.kindOf(lead) == KeyTerms.Kind.NAME && rng.nextBoolean()) {
                claim = subject + sentence.substring(sentence.indexOf(lead) + lead.length());
            } else if (subject != null && !names.isEmpty() && rng.nextBoolean()) {
                claim = TextEdits.replaceWord(sentence, Rand.pick(rng, names), subject);
            }
            String connector = Rand.pick(rng, CONNECTORS);
            if (!connector.isEmpty()) {
                List<String> claimTokens = Words.tokens(claim);
                boolean keepCase = !claimTokens.isEmpty() && KeyTerms.kindOf(claimTokens.get(0)) == KeyTerms.Kind.NAME;
                claim = connector + (keepCase ? claim : Character.toLowerCase(claim.charAt(0)) + claim.substring(1));
            }
            // Unsupported for real: most of what it says is found nowhere in the context.
            List<String> stems = Words.contentStems(claim);
            long unsupported = stems.stream().filter(st -> !contextStems.contains(st)).count();
            if (unsupported * 2 >= stems.size() && unsupported >= 2) {
                return claim;
            }
            fallback = claim;
        }
        return fallback != null ? fallback : vocabulary.unrelatedSentence(title, rng);
    }

    private static Chunk first(List<Chunk> context, Set<Chunk> wanted) {
        for (Chunk c : context) {
            if (wanted.contains(c)) {
                return c;
            }
        }
        return null;
    }

    private static String joined(List<Chunk> context) {
        StringBuilder sb = new StringBuilder();
        for (Chunk c : context) {
            sb.append(c.text()).append('\n');
        }
        return sb.toString();
    }

    static String sentenceCase(String span) {
        String s = span.strip();
        if (s.isEmpty()) {
            return s;
        }
        s = Character.toUpperCase(s.charAt(0)) + s.substring(1);
        char last = s.charAt(s.length() - 1);
        return last == '.' || last == '!' || last == '?' ? s : s + ".";
    }
}
