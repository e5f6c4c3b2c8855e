package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import io.raglog.schemas.Passage;
import io.raglog.schemas.PassageFate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which passages a generator actually saw. Passages raglog already knows (the reranker's output, else what was
 * retrieved) are found in the prompt verbatim, in prompt order; the prompt reader's own split fills in passages that
 * came from nowhere logged. A known passage cut short by the pipeline's context budget is in the context with the
 * part that reached the prompt (its opening, at least {@link PromptMatches#MIN_KEPT_CHARS} characters); one dropped
 * is missing.
 */
final class ContextPassages {

    private ContextPassages() {}

    static List<Passage> inPrompt(ChatDetail generator, List<Passage> known, NormalisedTexts norm) {
        return inPrompt(generator, known, PromptMatches.find(norm.prompt(generator), known, norm), norm);
    }

    /** The same from the passages' matches in the prompt, found once for the run ({@link PromptMatches}). */
    static List<Passage> inPrompt(ChatDetail generator, List<Passage> known, List<PromptMatches.Match> matches,
            NormalisedTexts norm) {
        List<Placed> placed = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < known.size(); i++) {
            PromptMatches.Match m = matches.get(i);
            if (!m.reached()) {
                continue;
            }
            Passage p = known.get(i);
            String normalised = norm.text(p.text());
            seen.add(m.whole() ? normalised : normalised.substring(0, m.kept()));
            String text = m.whole() ? p.text() : PassageFate.keptPart(p.text(), m.kept(), m.length()).strip();
            placed.add(new Placed(m.at(), p.id(), text, p.score()));
        }
        if (generator.contextPassages() != null) {
            String prompt = null;
            for (String text : generator.contextPassages()) {
                String normalised = norm.text(text);
                if (normalised.isEmpty() || seen.contains(normalised) || coveredByKnown(normalised, seen)) {
                    continue;
                }
                seen.add(normalised);
                if (prompt == null) {
                    prompt = norm.prompt(generator);
                }
                // where it sits among the known ones: a prompt mixing passages raglog knows with extracts or
                // passages from nowhere logged keeps its own order
                int at = prompt.indexOf(normalised);
                placed.add(new Placed(at < 0 ? Integer.MAX_VALUE : at, Texts.normalisedContentId(normalised), text,
                        null));
            }
        }
        placed.sort(Comparator.comparingInt(Placed::at)); // stable: passages not found keep the reader's order, last
        List<Passage> context = new ArrayList<>(placed.size());
        for (Placed p : placed) {
            context.add(new Passage(p.id(), p.text(), p.score(), context.size() + 1));
        }
        return context;
    }

    /** A passage of the context and where it starts in the normalised prompt. */
    private record Placed(int at, String id, String text, Double score) {}

    /** The prompt reader may split a known passage differently (a header line kept): don't count it twice. */
    private static boolean coveredByKnown(String norm, Set<String> known) {
        for (String k : known) {
            if (k.contains(norm) || norm.contains(k)) {
                return true;
            }
        }
        return false;
    }
}
