package io.raglog.simulator.profile;

import java.util.ArrayList;
import java.util.List;

/**
 * The profiles the simulator ships, by name. {@code all} means the training profiles; the held-out ones are for
 * evaluation only and are simulated when named, so a training run over {@code all} never sees them.
 */
public final class Profiles {

    public static final String ALL = "all";

    private Profiles() {}

    /** What {@code all} means: the profiles models are trained on. */
    public static List<Profile> all() {
        return List.of(new OpenAiQdrantCohereProfile(), new TeiPineconeAnthropicProfile(),
                new OllamaJinaVllmProfile(), new ElasticVoyageResponsesProfile(), new OtelLlamaIndexProfile(),
                new LangChainMemoryProfile());
    }

    /** Held out of {@code all}: pipelines unlike the training ones, to measure on. */
    public static List<Profile> heldOut() {
        return List.of(new UnseenHydeMistralProfile(), new UnseenGatedClaudeProfile(), new UnseenAgentOpenAiProfile());
    }

    /** {@code all}, one name, or a comma-separated list of names (held-out profiles by name only). */
    public static List<Profile> select(String spec) {
        if (spec == null || spec.isBlank() || ALL.equals(spec.strip())) {
            return all();
        }
        List<Profile> known = new ArrayList<>(all());
        known.addAll(heldOut());
        List<Profile> out = new ArrayList<>();
        for (String name : spec.split(",")) {
            String wanted = name.strip();
            Profile found = known.stream().filter(p -> p.name().equals(wanted)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown profile \"" + wanted + "\"; known: "
                            + String.join(", ", names()) + ", or " + ALL + " (the training profiles)"));
            if (out.stream().noneMatch(p -> p.name().equals(wanted))) {
                out.add(found);
            }
        }
        return out;
    }

    /** Every profile's name, training then held-out. */
    public static List<String> names() {
        List<String> out = new ArrayList<>();
        all().forEach(p -> out.add(p.name()));
        heldOut().forEach(p -> out.add(p.name()));
        return out;
    }
}
