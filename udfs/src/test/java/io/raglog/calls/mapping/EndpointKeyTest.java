package io.raglog.calls.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import org.junit.jupiter.api.Test;

class EndpointKeyTest {

    private static EndpointKey key(String method, String url) {
        CallEvent call = InHouseCalls.call("support-bot", method, url, Json.MAPPER.createObjectNode(), 200,
                Json.MAPPER.createObjectNode());
        return EndpointKey.of(call);
    }

    @Test
    void shouldShareOneKeyAcrossKnowledgeBaseIdsAndDropTheQueryString() {
        EndpointKey a = key("POST", "http://search.internal:8080/v1/kb/123/search");
        EndpointKey b = key("post", "http://search.internal:8080/v1/kb/456/search?trace=1&debug=true");
        assertThat(a).isEqualTo(b);
        assertThat(a.pathTemplate()).isEqualTo("/v1/kb/{id}/search");
        assertThat(a.method()).isEqualTo("POST");
        assertThat(a.host()).isEqualTo("search.internal:8080");
        assertThat(a.endpoint()).isEqualTo("POST search.internal:8080/v1/kb/{id}/search");
    }

    @Test
    void shouldTemplateUuidsHexIdsAndLongTokens() {
        assertThat(EndpointKey.template("/collections/3f2b8c1e-9d4a-4e6b-8f1a-2c3d4e5f6a7b/query"))
                .isEqualTo("/collections/{id}/query");
        assertThat(EndpointKey.template("/docs/65f1a2b3c4d5e6f7a8b9c0d1")).isEqualTo("/docs/{id}"); // Mongo ObjectId
        assertThat(EndpointKey.template("/runs/01HQ3K4N5P6Q7R8S9T0V1W2X3Y/answer")).isEqualTo("/runs/{id}/answer");
        assertThat(EndpointKey.template("/tenants/cus_9s6XKzkNRiz8i3/search")).isEqualTo("/tenants/{id}/search");
        assertThat(EndpointKey.template("/kb/kb-2024061101/search")).isEqualTo("/kb/{id}/search");
        assertThat(EndpointKey.template("/cursor/" + "a".repeat(48))).isEqualTo("/cursor/{id}");
    }

    @Test
    void shouldKeepTheWordsThatNameAnOperation() {
        assertThat(EndpointKey.template("/v1/embeddings")).isEqualTo("/v1/embeddings");
        assertThat(EndpointKey.template("/api/v2/rerank/")).isEqualTo("/api/v2/rerank");
        assertThat(EndpointKey.template("/llm/v2/generate")).isEqualTo("/llm/v2/generate");
        assertThat(EndpointKey.template("/indexes/product-docs/search")).isEqualTo("/indexes/product-docs/search");
        assertThat(EndpointKey.template("/deadbeef/answer")).isEqualTo("/deadbeef/answer"); // hex letters, no digit
        assertThat(EndpointKey.template("")).isEqualTo("/");
    }

    @Test
    void shouldSeparatePipelinesMethodsAndHosts() {
        EndpointKey search = key("POST", "http://search.internal:8080/v1/kb/1/search");
        assertThat(key("GET", "http://search.internal:8080/v1/kb/1/search")).isNotEqualTo(search);
        assertThat(key("POST", "http://search.internal:8081/v1/kb/1/search")).isNotEqualTo(search);
        CallEvent other = InHouseCalls.withPipeline(InHouseCalls.acmeSearch(1), "billing-bot");
        assertThat(EndpointKey.of(other)).isNotEqualTo(EndpointKey.of(InHouseCalls.acmeSearch(1)));
    }

    @Test
    void shouldReadTheUrlAsTheAdaptersDo() {
        EndpointKey spaced = key(" post ", "search.internal:8080//v1/kb/7/search/");
        EndpointKey bare = key("POST", "v1/kb/7/search");

        assertThat(spaced.method()).isEqualTo("POST");
        assertThat(bare.pathTemplate()).isEqualTo("/v1/kb/{id}/search");
        assertThat(key("POST", "http://search.internal:8080//v1//kb/7/search/"))
                .isEqualTo(key("POST", "http://search.internal:8080/v1/kb/8/search"));
    }

    @Test
    void shouldKeepCredentialsInTheUrlOutOfTheKey() {
        EndpointKey k = key("POST", "https://svc:s3cr3t@Search.Internal/v1/search#top");
        assertThat(k.host()).isEqualTo("search.internal");
        assertThat(k.pathTemplate()).isEqualTo("/v1/search");
        assertThat(k.toString()).doesNotContain("s3cr3t");
    }
}
