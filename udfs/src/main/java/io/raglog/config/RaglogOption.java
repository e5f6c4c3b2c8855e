package io.raglog.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.util.TimeUtils;

/**
 * One raglog setting: a typed Flink {@link ConfigOption} whose key is its raglog.yaml path ({@code llm.provider}),
 * and the environment variable that overrides it. The variable is {@code RAGLOG_} + the key in upper case with dots
 * as underscores ({@code llm.provider} ⇄ {@code RAGLOG_LLM_PROVIDER}) unless the option keeps an older, documented
 * name ({@code checks.vector_checks} ⇄ {@code RAGLOG_VECTOR_CHECKS}).
 *
 * <p>Values are parsed by Flink's typed getters (durations by {@code TimeUtils}: {@code PT2S}, {@code 2 s},
 * {@code 300ms}), once, and a value that does not parse is reported with its key and variable.
 *
 * @param secret never in raglog.yaml (only the environment sets it) and masked wherever configuration is printed
 */
public record RaglogOption<T>(ConfigOption<T> option, String variable, boolean secret) {

    public static <T> RaglogOption<T> of(ConfigOption<T> option) {
        return new RaglogOption<>(option, variableOf(option.key()), false);
    }

    /** The documented mapping from a key to its environment variable. */
    public static String variableOf(String key) {
        return "RAGLOG_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The same option under an older environment variable than the derived one. */
    public RaglogOption<T> withVariable(String name) {
        return new RaglogOption<>(option, name, secret);
    }

    /** A secret: environment only, masked when printed. */
    public RaglogOption<T> asSecret() {
        return new RaglogOption<>(option, variable, true);
    }

    public String key() {
        return option.key();
    }

    public String description() {
        StringBuilder text = new StringBuilder();
        for (var block : option.description().getBlocks()) {
            if (block instanceof org.apache.flink.configuration.description.TextElement t) {
                text.append(t.getFormat());
            }
        }
        return text.toString();
    }

    /** The typed value (or the default); a value that does not parse names the key and the variable. */
    public T get(ReadableConfig config) {
        try {
            return config.get(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key() + " (" + variable + ") " + e.getMessage(), e);
        }
    }

    /** Whether the value is a list (given in YAML as a sequence, in the environment separated by commas). */
    public boolean isList() {
        return option.hasDefaultValue() && option.defaultValue() instanceof List<?>;
    }

    /** Whether the value is a map (given in YAML as a mapping, in the environment as {@code k:v,k2:v2}). */
    public boolean isMap() {
        return option.hasDefaultValue() && option.defaultValue() instanceof Map<?, ?>;
    }

    /** Sets the option from text as written in raglog.yaml or an environment variable. */
    public void setText(Configuration config, String text) {
        String value = text.strip();
        config.setString(key(), isList() ? String.join(";", value.split("\\s*[,;]\\s*")) : value);
    }

    /** Sets a list option from a YAML sequence. */
    @SuppressWarnings("unchecked")
    public void setList(Configuration config, Collection<String> values) {
        if (isList()) {
            config.set((ConfigOption<List<String>>) option, new ArrayList<>(values));
        } else {
            throw new IllegalArgumentException(key() + " takes one value, not a list: " + values);
        }
    }

    /** The default as printed in the reference. */
    public String defaultText() {
        if (!option.hasDefaultValue()) {
            return "";
        }
        return text(option.defaultValue());
    }

    /** A value as raglog prints it: durations in their highest unit, lists and maps as Flink writes them. */
    public static String text(Object value) {
        if (value instanceof Duration d) {
            return TimeUtils.formatWithHighestUnit(d);
        }
        if (value instanceof List<?> list) {
            return String.join(";", list.stream().map(String::valueOf).toList());
        }
        return String.valueOf(value);
    }

    /**
     * A signed duration: Flink's own syntax ({@code PT0.3S}, {@code 300 ms}), with a leading {@code -} for the
     * settings where a negative value means "off".
     */
    public static Duration signedDuration(String key, String text) {
        String t = text.strip();
        try {
            return t.startsWith("-") ? TimeUtils.parseDuration(t.substring(1)).negated() : TimeUtils.parseDuration(t);
        } catch (IllegalArgumentException | java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(key + " must be a duration (PT0.3S, 300 ms), not '" + text + "'", e);
        }
    }

    /** A configuration holding only what {@code env} sets for {@code options} (the settings' {@code fromEnv}). */
    public static Configuration fromEnvironment(Map<String, String> env, Collection<RaglogOption<?>> options) {
        Configuration config = new Configuration();
        for (RaglogOption<?> o : options) {
            String v = env.get(o.variable());
            if (v != null && !v.isBlank()) {
                o.setText(config, v);
            }
        }
        return config;
    }
}
