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
 * came from nowhere logged. Prompt truncation by the pipeline shows up here as a known passage missing.
 */
final class ContextPassages {

    private ContextPassages() {}

    static List<Passage> inPrompt(ChatDetail generator, List<Passage> known, NormalisedTexts norm) {
        String prompt = norm.prompt(generator);
        List<int[]> found = new ArrayList<>(); // {position in prompt, index in known}
        for (int i = 0; i < known.size(); i++) {
            String text = norm.text(known.get(i).text());
            if (text.isEmpty()) {
                continue;
            }
            int at = prompt.indexOf(text);
            if (at >= 0) {
                found.add(new int[] {at, i});
            }
        }
        found.sort(Comparator.comparingInt(f -> f[0]));
        List<Passage> context = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int[] f : found) {
            Passage p = known.get(f[1]);
            seen.add(norm.text(p.text()));
            context.add(new Passage(p.id(), p.text(), p.score(), context.size() + 1));
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
