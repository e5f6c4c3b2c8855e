package io.raglog.assemble;

import io.raglog.calls.ChatDetail;
import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which passages a generator actually saw. Passages raglog already knows (the reranker's output, else what was
 * retrieved) are found in the prompt verbatim, in prompt order; the prompt reader's own split fills in passages that
 * came from nowhere logged. A known passage cut short by the pipeline's context budget is in the context with the
 * part that reached the prompt (its opening, at least {@link ContextAssembly#MIN_KEPT_CHARS} characters); one dropped
 * is missing.
 */
final class ContextPassages {

    private ContextPassages() {}

    static List<Passage> inPrompt(ChatDetail generator, List<Passage> known, NormalisedTexts norm) {
        String prompt = norm.prompt(generator);
        List<int[]> found = new ArrayList<>(); // {position in prompt, index in known, normalised characters kept}
        for (int i = 0; i < known.size(); i++) {
            String text = norm.text(known.get(i).text());
            if (text.isEmpty()) {
                continue;
            }
            int at = prompt.indexOf(text);
            if (at >= 0) {
                found.add(new int[] {at, i, text.length()});
                continue;
            }
            int kept = ContextAssembly.longestPrefixIn(prompt, text);
            if (kept >= ContextAssembly.MIN_KEPT_CHARS) {
                found.add(new int[] {prompt.indexOf(text.substring(0, kept)), i, kept});
            }
        }
        found.sort(Comparator.comparingInt(f -> f[0]));
        List<Passage> context = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int[] f : found) {
            Passage p = known.get(f[1]);
            String normalised = norm.text(p.text());
            boolean whole = f[2] == normalised.length();
            seen.add(whole ? normalised : normalised.substring(0, f[2]));
            String text = whole ? p.text() : keptPart(p.text(), (double) f[2] / normalised.length());
            context.add(new Passage(p.id(), text, p.score(), context.size() + 1));
        }
        if (generator.contextPassages() != null) {
            for (String text : generator.contextPassages()) {
                String normalised = norm.text(text);
                if (normalised.isEmpty() || seen.contains(normalised) || coveredByKnown(normalised, seen)) {
                    continue;
                }
                seen.add(normalised);
                context.add(new Passage(Texts.normalisedContentId(normalised), text, null, context.size() + 1));
            }
        }
        return context;
    }

    /** The opening of a passage that reached the prompt cut: as large a share of it as of its normalised text. */
    private static String keptPart(String text, double share) {
        return text.substring(0, Math.min(text.length(), (int) Math.round(share * text.length()))).strip();
    }

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
