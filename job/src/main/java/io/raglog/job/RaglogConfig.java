package io.raglog.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.raglog.assemble.AssemblyOptions;
import io.raglog.calls.mapping.MappingOptions;
import io.raglog.checkstage.ChecksOptions;
import io.raglog.config.RaglogOption;
import io.raglog.llm.LlmOptions;
import io.raglog.monitor.SamplingOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * The job's configuration, read once: the defaults of every option ({@link #OPTIONS}), then {@code raglog.yaml}
 * (keys as in the file: {@code assembly.generator_wait}), then environment variables (each option's
 * {@link RaglogOption#variable()}: {@code RAGLOG_} + the key in upper case, dots as underscores, unless the option
 * keeps an older name). The later wins. The settings records ({@link JobSettings}, {@link KafkaConnection}, the
 * Elasticsearch outputs) are built from the resulting Flink {@link Configuration}, and {@link #source} says where
 * each value came from. Secrets are never in the file: it names the environment variable or file that holds them.
 */
public final class RaglogConfig {

    /** Every option, in the order of raglog.example.yaml and the reference in docs/configuration.md. */
    public static final List<RaglogOption<?>> OPTIONS = Stream.of(KafkaOptions.ALL, ElasticsearchOutputOptions.ALL,
            LlmOptions.ALL, ChecksOptions.ALL, MappingOptions.ALL, SamplingOptions.ALL, AssemblyOptions.ALL,
            JobOptions.ALL).flatMap(List::stream).toList();

    /** Where a value came from, when neither the file nor the environment set it. */
    public static final String DEFAULT = "default";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern SECRET_PROPERTY = Pattern.compile("(?i).*(password|secret|jaas|token|key).*");

    private final Configuration configuration;
    private final Map<String, String> sources;

    private RaglogConfig(Configuration configuration, Map<String, String> sources) {
        this.configuration = configuration;
        this.sources = sources;
    }

    /** @param file null for the defaults */
    public static RaglogConfig load(Path file, Map<String, String> env) throws IOException {
        return read(file == null ? "" : Files.readString(file), file == null ? null : "YAML " + file, env);
    }

    static RaglogConfig parse(String yaml, Map<String, String> env) throws IOException {
        return read(yaml, "YAML", env);
    }

    private static RaglogConfig read(String yaml, String fileName, Map<String, String> env) throws IOException {
        Map<String, RaglogOption<?>> byKey = new LinkedHashMap<>();
        OPTIONS.forEach(o -> byKey.put(o.key(), o));
        Configuration conf = new Configuration();
        Map<String, String> sources = new LinkedHashMap<>();
        JsonNode root = yaml.isBlank() ? null : YAML.readTree(yaml);
        if (root != null && !root.isNull() && !root.isMissingNode()) {
            if (!root.isObject()) {
                throw new IllegalArgumentException(fileName + " must be a mapping of sections, not " + root);
            }
            readYaml(root, "", byKey, conf, sources, fileName);
        }
        for (RaglogOption<?> o : OPTIONS) {
            String v = env.get(o.variable());
            if (v != null && !v.isBlank()) {
                o.setText(conf, v);
                sources.put(o.key(), o.variable());
            }
        }
        // naming the hosts in the environment turns Elasticsearch on, unless the environment also says otherwise
        RaglogOption<?> enabled = ElasticsearchOutputOptions.ENABLED;
        if (ElasticsearchOutputOptions.HOSTS.variable().equals(sources.get(ElasticsearchOutputOptions.HOSTS.key()))
                && !enabled.variable().equals(sources.get(enabled.key()))) {
            conf.set(ElasticsearchOutputOptions.ENABLED.option(), true);
            sources.put(enabled.key(), ElasticsearchOutputOptions.HOSTS.variable());
        }
        RaglogConfig config = new RaglogConfig(conf, sources);
        OPTIONS.forEach(o -> o.get(conf)); // every value parses now, naming its key, not when a task first reads it
        return config;
    }

    private static void readYaml(JsonNode node, String prefix, Map<String, RaglogOption<?>> byKey, Configuration conf,
            Map<String, String> sources, String fileName) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = prefix + field.getKey();
            JsonNode value = field.getValue();
            RaglogOption<?> option = byKey.get(key);
            if (option == null && value.isObject() && byKey.keySet().stream().anyMatch(k -> k.startsWith(key + "."))) {
                readYaml(value, key + ".", byKey, conf, sources, fileName);
                continue;
            }
            if (option == null) { // a typo in a key must not pass silently
                throw new IllegalArgumentException("unknown key '" + key + "' in " + fileName
                        + "; the keys are listed in raglog.example.yaml and docs/configuration.md");
            }
            if (option.secret()) {
                throw new IllegalArgumentException(key + " is a secret and never goes in " + fileName + ": set "
                        + option.variable() + " (or name a file holding it)");
            }
            if (value.isNull()) {
                continue;
            }
            if (option.isMap()) {
                Map<String, String> map = new LinkedHashMap<>();
                value.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
                @SuppressWarnings("unchecked")
                ConfigOption<Map<String, String>> mapOption = (ConfigOption<Map<String, String>>) option.option();
                conf.set(mapOption, map);
            } else if (value.isArray()) {
                List<String> items = new ArrayList<>();
                value.forEach(item -> items.add(item.asText()));
                option.setList(conf, items);
            } else if (value.isContainerNode()) {
                throw new IllegalArgumentException(key + " in " + fileName + " must be a single value, not " + value);
            } else {
                option.setText(conf, value.asText());
            }
            sources.put(key, fileName);
        }
    }

    /** The typed configuration every settings record is built from. */
    public Configuration configuration() {
        return configuration;
    }

    /** Where {@code option}'s value came from: {@link #DEFAULT}, {@code YAML} and the file's path, or the variable. */
    public String source(RaglogOption<?> option) {
        return sources.getOrDefault(option.key(), DEFAULT);
    }

    public JobSettings jobSettings() {
        return JobSettings.from(configuration);
    }

    public KafkaConnection kafka() {
        return KafkaOptions.connection(configuration);
    }

    public boolean elasticsearchEnabled() {
        return ElasticsearchOutputOptions.ENABLED.get(configuration);
    }

    public int parallelism() {
        return JobOptions.PARALLELISM.get(configuration);
    }

    /** One line per option: the key, its effective value (secrets masked) and where it came from. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (RaglogOption<?> o : OPTIONS) {
            out.append(o.key()).append(" = ").append(shown(o)).append("    (").append(source(o)).append(")\n");
        }
        return out.toString().stripTrailing();
    }

    private String shown(RaglogOption<?> o) {
        Optional<?> value = configuration.getOptional(o.option());
        Object effective = value.isPresent() ? value.get() : o.option().hasDefaultValue() ? o.option().defaultValue() : null;
        if (effective == null) {
            return "(unset)";
        }
        if (o.secret()) {
            return "****";
        }
        if (effective instanceof Map<?, ?> map) {
            Map<Object, Object> masked = new LinkedHashMap<>();
            map.forEach((k, v) -> masked.put(k, SECRET_PROPERTY.matcher(String.valueOf(k)).matches() ? "****" : v));
            return masked.toString();
        }
        return RaglogOption.text(effective);
    }
}
