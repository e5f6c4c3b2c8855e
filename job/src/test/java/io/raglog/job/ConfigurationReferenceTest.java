package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.config.RaglogOption;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md's reference is the options' own keys, variables, defaults and descriptions. When
 * an option changes, the expected table is written to target/config-reference.md: paste it between the markers.
 */
class ConfigurationReferenceTest {

    static final String START = "<!-- config-reference: generated from RaglogConfig.OPTIONS, checked by "
            + "ConfigurationReferenceTest -->";
    static final String END = "<!-- end config-reference -->";

    static String table() {
        StringBuilder out = new StringBuilder("| key (raglog.yaml) | environment variable | default | what it sets |\n"
                + "| --- | --- | --- | --- |\n");
        for (RaglogOption<?> o : RaglogConfig.OPTIONS) {
            String def = o.defaultText();
            out.append("| `").append(o.key()).append("` | `").append(o.variable()).append("` | ")
                    .append(def.isEmpty() ? "" : "`" + def + "`").append(" | ")
                    .append(o.secret() ? "**Secret**: " : "").append(o.description()).append(" |\n");
        }
        return out.toString();
    }

    @Test
    void shouldDocumentEveryOptionAsItIs() throws Exception {
        String expected = table();
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "config-reference.md"), START + "\n" + expected + END + "\n");
        String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
        int start = doc.indexOf(START);
        int end = doc.indexOf(END);
        assertThat(start).as("the reference's start marker in docs/configuration.md").isNotNegative();
        assertThat(end).as("the reference's end marker").isGreaterThan(start);
        assertThat(doc.substring(start + START.length() + 1, end)).isEqualTo(expected);
    }
}
