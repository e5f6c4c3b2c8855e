package io.raglog.checkstage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ChecksSettingsTest {

    @Test
    void shouldEmbedOnOneThreadUnlessToldOtherwise() {
        assertThat(ChecksSettings.defaults().embeddingThreads()).isEqualTo(1);
        assertThat(ChecksSettings.fromEnv(Map.of(ChecksSettings.EMBEDDING_THREADS, " 2 ")).embeddingThreads())
                .isEqualTo(2);
        ChecksSettings two = ChecksSettings.fromEnv(Map.of(ChecksSettings.EMBEDDING_THREADS, "2"));
        assertThat(two.withVectorChecks(false).embeddingThreads()).isEqualTo(2);
        assertThat(two.withLlm(two.llm()).embeddingThreads()).isEqualTo(2);
    }

    @Test
    void shouldRefuseAThreadCountThatIsNotAPositiveWholeNumber() {
        assertThatThrownBy(() -> ChecksSettings.fromEnv(Map.of(ChecksSettings.EMBEDDING_THREADS, "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RAGLOG_EMBEDDING_THREADS");
        assertThatThrownBy(() -> ChecksSettings.fromEnv(Map.of(ChecksSettings.EMBEDDING_THREADS, "two")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RAGLOG_EMBEDDING_THREADS")
                .hasMessageContaining("'two'");
    }
}
