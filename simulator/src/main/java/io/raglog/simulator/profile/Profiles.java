package io.raglog.simulator.profile;

import java.util.ArrayList;
import java.util.List;

/** The profiles the simulator ships, by name. */
public final class Profiles {

    public static final String ALL = "all";

    private Profiles() {}

    public static List<Profile> all() {
        return List.of(new OpenAiQdrantCohereProfile(), new TeiPineconeAnthropicProfile(),
                new OllamaJinaVllmProfile(), new ElasticVoyageResponsesProfile(), new OtelLlamaIndexProfile(),
                new LangChainMemoryProfile());
    }

    /** {@code all}, one name, or a comma-separated list of names. */
    public static List<Profile> select(String spec) {
        if (spec == null || spec.isBlank() || ALL.equals(spec.strip())) {
            return all();
        }
        List<Profile> out = new ArrayList<>();
        for (String name : spec.split(",")) {
            String wanted = name.strip();
            Profile found = all().stream().filter(p -> p.name().equals(wanted)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown profile \"" + wanted + "\"; known: "
                            + String.join(", ", names()) + ", or " + ALL));
            if (out.stream().noneMatch(p -> p.name().equals(wanted))) {
                out.add(found);
            }
        }
        return out;
    }

    public static List<String> names() {
        List<String> out = new ArrayList<>();
        all().forEach(p -> out.add(p.name()));
        return out;
    }
}
