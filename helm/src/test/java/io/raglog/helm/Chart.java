package io.raglog.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The chart in {@code helm/raglog}, linted and rendered by Helm's own Go code through helm-java (no helm binary), as
 * release {@code prod} in namespace {@code rag}. Renderings are cached per set of values: the suite renders the same
 * defaults many times.
 */
final class Chart {

    static final String RELEASE = "prod";
    static final String NAMESPACE = "rag";
    /** The release name does not contain "raglog", so every resource is prefixed "prod-raglog". */
    static final String FULLNAME = "prod-raglog";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Map<Map<String, String>, Rendered> CACHE = new ConcurrentHashMap<>();

    private Chart() {}

    static Path directory() {
        return Repo.root().resolve("helm").resolve("raglog");
    }

    static LintResult lint() {
        return new Helm(directory()).lint().strict().call();
    }

    /** Renders with the chart's defaults. */
    static Rendered render() {
        return render(Map.of());
    }

    /** Renders with {@code --set key=value} for each entry. Throws {@link IllegalStateException} when Helm refuses. */
    static Rendered render(Map<String, String> values) {
        return CACHE.computeIfAbsent(Map.copyOf(values), Chart::template);
    }

    /** What Helm says when it refuses these values (a {@code fail} in a template or a YAML error). */
    static String refusal(Map<String, String> values) {
        try {
            template(values);
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
        throw new AssertionError("the chart rendered with " + values + " but should have refused");
    }

    static Map<String, String> values(String... keyValues) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            out.put(keyValues[i], keyValues[i + 1]);
        }
        return out;
    }

    private static Rendered template(Map<String, String> values) {
        TemplateCommand command = new Helm(directory()).template().withName(RELEASE).withNamespace(NAMESPACE);
        for (Map.Entry<String, String> e : values.entrySet()) {
            command = command.set(e.getKey(), e.getValue());
        }
        return new Rendered(parse(command.call()));
    }

    private static List<JsonNode> parse(String manifests) {
        List<JsonNode> docs = new ArrayList<>();
        try (YAMLParser parser = ((YAMLFactory) YAML.getFactory()).createParser(manifests)) {
            for (JsonNode doc : YAML.readValues(parser, JsonNode.class).readAll()) {
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("helm template produced unparsable YAML", e);
        }
        return docs;
    }

    static JsonNode parseYaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
