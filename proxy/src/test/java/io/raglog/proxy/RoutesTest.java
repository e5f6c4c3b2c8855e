package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoutesTest {

    private final Routes routes = new Routes(List.of(
            Route.parse("/openai=https://api.openai.com"),
            Route.parse("/openai/azure=https://contoso.openai.azure.com/openai/"),
            Route.parse("/qdrant/=http://qdrant:6333"),
            Route.parse("vectors.internal=http://weaviate:8080/base")));

    @Test
    void shouldReplaceThePrefixWithTheUpstreamBase() {
        Routes.Match m = routes.resolve("/openai/v1/chat/completions", "proxy:8080");
        assertThat(m.upstreamUrl()).isEqualTo("https://api.openai.com/v1/chat/completions");
        assertThat(m.route().upstreamAuthority()).isEqualTo("api.openai.com");
        assertThat(m.route().upstreamPort()).isEqualTo(443);
    }

    @Test
    void shouldPreferTheLongestPrefixAndKeepTheUpstreamBasePath() {
        assertThat(routes.resolve("/openai/azure/deployments/gpt-4o/chat/completions?api-version=2024-10-21", null)
                .upstreamUrl()).isEqualTo("https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions"
                        + "?api-version=2024-10-21");
    }

    @Test
    void shouldMatchPrefixesOnWholeSegmentsOnly() {
        assertThat(routes.resolve("/openaix/v1/models", null)).isNull();
        assertThat(routes.resolve("/openai", null).upstreamUrl()).isEqualTo("https://api.openai.com/");
    }

    @Test
    void shouldKeepTheQueryAndItsEncodingByteForByte() {
        assertThat(routes.resolve("/qdrant/collections/a%20b/points?wait=true&x=%2F", null).upstreamUrl())
                .isEqualTo("http://qdrant:6333/collections/a%20b/points?wait=true&x=%2F");
    }

    @Test
    void shouldRouteByHostBeforePrefixes() {
        Routes.Match m = routes.resolve("/openai/v1/objects", "Vectors.Internal:8080");
        assertThat(m.upstreamUrl()).isEqualTo("http://weaviate:8080/base/openai/v1/objects");
        assertThat(m.route().upstreamAuthority()).isEqualTo("weaviate:8080");
    }

    @Test
    void shouldRouteAbsoluteFormRequestsByTheirHost() {
        assertThat(routes.resolve("http://vectors.internal/v1/schema", null).upstreamUrl())
                .isEqualTo("http://weaviate:8080/base/v1/schema");
    }

    @Test
    void shouldRejectUpstreamsThatCannotBeProxiedSafely() {
        assertThatThrownBy(() -> Route.parse("/x=ftp://files")).hasMessageContaining("http:// or https://");
        assertThatThrownBy(() -> Route.parse("/x=https://user:pw@api.example.com"))
                .hasMessageContaining("credentials").hasMessageNotContaining("pw");
        assertThatThrownBy(() -> Route.parse("openai")).hasMessageContaining("PREFIX=URL");
    }
}
