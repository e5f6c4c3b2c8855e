package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.AnswerMatch;
import io.raglog.simulator.text.KeyTerms;
import io.raglog.simulator.text.Sentences;
import io.raglog.simulator.text.Words;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Dresses an answer the way a pipeline's generator writes: restated, with sentences of its passage around it, with a
 * citation, hedged, or as a list. Applied to every answer that is not a refusal, sound or faulty alike, so the dress
 * tells nothing of the fault; and it adds nothing the passage does not say (no sentence holding the reference answer
 * goes next to a wrong one, so the label's correctness stays what the answer's content made it).
 */
final class AnswerDress {

    private static final List<String> HEDGES_FOR_SENTENCES = List.of("It appears that ", "Based on the provided"
            + " context, ", "The passages suggest that ", "From what the documents say, ", "As far as I can tell, ");
    private static final List<String> HEDGES_FOR_SPANS = List.of("It appears to be %s.", "Most likely %s.",
            "The context points to %s.", "Probably %s, going by the passages.");
    private static final List<String> FRAMES_FOR_SPANS = List.of("The answer is %s.", "That would be %s.",
            "%s, according to the passage.", "It was %s.");

    private AnswerDress() {}

    static String dress(String answer, AnswerStyle style, Question q, List<Chunk> context, SplittableRandom rng) {
        String dressed = dressed(answer, style, q, context, rng);
        // A restatement may split what the answer hinged on ("Paris, France is …" reordered): then it stays plain,
        // so the dress never changes whether the answer is right.
        boolean right = q.answerable() && AnswerMatch.contains(answer, q.acceptableAnswers());
        boolean stillRight = q.answerable() && AnswerMatch.contains(dressed, q.acceptableAnswers());
        return right == stillRight ? dressed : answer;
    }

    private static String dressed(String answer, AnswerStyle style, Question q, List<Chunk> context,
            SplittableRandom rng) {
        Chunk source = sourceOf(answer, context);
        boolean span = Words.tokens(answer).size() <= 6;
        String core = answer.endsWith(".") ? answer.substring(0, answer.length() - 1) : answer;
        switch (style) {
            case PARAPHRASED:
                return span ? String.format(Rand.pick(rng, FRAMES_FOR_SPANS), core) : reordered(answer);
            case HEDGED:
                return span ? String.format(Rand.pick(rng, HEDGES_FOR_SPANS), core)
                        : Rand.pick(rng, HEDGES_FOR_SENTENCES) + lowerFirst(answer);
            case VERBOSE: {
                List<String> extra = around(answer, source, q, 1 + rng.nextInt(2));
                return extra.isEmpty() ? answer : answer + " " + String.join(" ", extra);
            }
            case CITED: {
                if (source == null) {
                    return answer;
                }
                if (rng.nextBoolean()) {
                    return core + " [" + (context.indexOf(source) + 1) + "].";
                }
                return core + " (source: " + source.title().replace('_', ' ') + ").";
            }
            case LIST: {
                List<String> extra = around(answer, source, q, 1 + rng.nextInt(2));
                if (extra.isEmpty()) {
                    return answer;
                }
                StringBuilder sb = new StringBuilder(rng.nextBoolean() ? "" : "Key points:\n");
                sb.append("- ").append(answer);
                extra.forEach(e -> sb.append("\n- ").append(e));
                return sb.toString();
            }
            default:
                return answer;
        }
    }

    /** The context passage the answer was taken from, null when none holds it (an answer from memory). */
    private static Chunk sourceOf(String answer, List<Chunk> context) {
        String core = answer.endsWith(".") ? answer.substring(0, answer.length() - 1) : answer;
        for (Chunk c : context) {
            if (c.text().contains(core)) {
                return c;
            }
        }
        return null;
    }

    /** Up to {@code n} sentences next to the answer's in its passage, none holding the reference answer. */
    private static List<String> around(String answer, Chunk source, Question q, int n) {
        List<String> out = new ArrayList<>();
        if (source == null) {
            return out;
        }
        boolean answerRight = q.answerable() && AnswerMatch.contains(answer, q.acceptableAnswers());
        for (String s : Sentences.of(source.text())) {
            if (out.size() >= n) {
                break;
            }
            boolean givesAway = q.answerable() && !answerRight && AnswerMatch.contains(s, q.acceptableAnswers());
            if (!answer.contains(s) && !s.contains(answer) && !givesAway && s.length() <= 300) {
                out.add(s);
            }
        }
        return out;
    }

    /** "In 1066, William crossed the Channel." becomes "William crossed the Channel in 1066." */
    private static String reordered(String sentence) {
        int comma = sentence.indexOf(", ");
        if (comma < 0 || Words.tokens(sentence.substring(0, comma)).size() > 6) {
            return sentence;
        }
        String lead = sentence.substring(0, comma);
        String rest = sentence.substring(comma + 2);
        if (rest.isEmpty()) {
            return sentence;
        }
        String body = rest.endsWith(".") ? rest.substring(0, rest.length() - 1) : rest;
        return Character.toUpperCase(body.charAt(0)) + body.substring(1) + " " + lowerFirst(lead) + ".";
    }

    /** Lower-cases the first letter unless the first word is a name or an acronym. */
    private static String lowerFirst(String text) {
        List<String> tokens = Words.tokens(text);
        if (text.isEmpty() || tokens.isEmpty() || KeyTerms.kindOf(tokens.get(0)) != null
                && !Words.isStopword(tokens.get(0))) {
            return text;
        }
        return Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
