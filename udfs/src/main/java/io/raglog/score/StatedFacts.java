package io.raglog.score;

import io.raglog.checks.VectorChecks;
import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The facts about one stage as the checks stated them, merged by {@link Fact#key() identity}, not by wording: the
 * rules, the vectors and the LLM judge each word a lost name their own way, and a person reads it once, with the
 * checks that agree and the passages it points to. The first wording of a fact is kept (the rules come first, then
 * the vectors, then the judge: the most literal first); the facts most checks agree on come first.
 */
final class StatedFacts {

    /** Who stated a fact, in the order they are named. */
    enum Source {
        RULES("rules"), VECTORS("vectors"), LLM("LLM judge");

        final String label;

        Source(String label) {
            this.label = label;
        }

        /** The source of a finding, by its check's name ({@code llm.retrieval}, {@code vectors}, {@code rewrite.*}). */
        static Source ofCheck(String check) {
            if (check != null && check.startsWith("llm.")) {
                return LLM;
            }
            return VectorChecks.CHECK.equals(check) ? VECTORS : RULES;
        }
    }

    private static final class Stated {
        final FactKind kind;
        final String text;
        final Set<Source> sources = EnumSet.noneOf(Source.class);
        final Set<String> passages = new LinkedHashSet<>();
        final int order;
        Long confidence;

        Stated(FactKind kind, String text, int order) {
            this.kind = kind;
            this.text = text;
            this.order = order;
        }
    }

    private final String judge;
    private final Map<String, Stated> byKey = new LinkedHashMap<>();

    /** @param judge the judge's id, named beside its figures (an offline judge is not a model) */
    StatedFacts(String judge) {
        this.judge = judge;
    }

    /** A check stated the fact in these words. */
    void state(Fact fact, Source source, String text) {
        Stated s = byKey.computeIfAbsent(fact.key(), k -> new Stated(fact.kind(), text, byKey.size()));
        s.sources.add(source);
        s.passages.addAll(fact.passageIds());
    }

    /** The LLM judge gave the fact this confidence (0-100); the words are used when no check stated it yet. */
    void confidence(Fact fact, double confidence, String text) {
        state(fact, Source.LLM, text);
        Stated s = byKey.get(fact.key());
        s.confidence = s.confidence == null ? Math.round(confidence) : Math.max(s.confidence, Math.round(confidence));
    }

    boolean has(FactKind kind) {
        return byKey.values().stream().anyMatch(s -> s.kind == kind);
    }

    boolean isEmpty() {
        return byKey.isEmpty();
    }

    /** One sentence per fact, those most checks agree on first, then in the order they were stated. */
    List<String> sentences() {
        List<Stated> all = new ArrayList<>(byKey.values());
        all.sort(Comparator.comparingInt((Stated s) -> -s.sources.size()).thenComparingInt(s -> s.order));
        List<String> out = new ArrayList<>(all.size());
        for (Stated s : all) {
            out.add(render(s));
        }
        return out;
    }

    private String render(Stated s) {
        List<String> unnamed = s.passages.stream().filter(id -> !s.text.contains(id)).toList();
        List<String> names = new ArrayList<>();
        for (Source source : s.sources) {
            names.add(source == Source.LLM && s.confidence != null
                    ? String.format(Locale.ROOT, "LLM judge %s: %d/100", judge, s.confidence) : source.label);
        }
        String who = listed(names);
        String where = unnamed.isEmpty() ? "" : (unnamed.size() == 1 ? "passage " : "passages ")
                + String.join(", ", unnamed) + "; ";
        return s.text + " (" + where + who + ")";
    }

    /** "a", "a and b", "a, b and c": as a reader lists them. */
    static String listed(List<String> items) {
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }
}
