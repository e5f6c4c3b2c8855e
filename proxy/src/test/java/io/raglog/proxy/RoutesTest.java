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

    @Test
    void shouldInferTheAwsSigningNameAndRegionFromABedrockHost() {
        assertThat(Route.parse("/bedrock=https://bedrock-runtime.us-east-1.amazonaws.com")
                .signedWithAwsSigV4(null, null).awsSigV4()).isEqualTo(new AwsSigV4("bedrock", "us-east-1"));
        assertThat(Route.parse("/kb=https://bedrock-agent-runtime.eu-west-1.amazonaws.com")
                .signedWithAwsSigV4(null, null).awsSigV4()).isEqualTo(new AwsSigV4("bedrock", "eu-west-1"));
        assertThat(Route.parse("/models=https://bedrock.ap-northeast-1.amazonaws.com").signedWithAwsSigV4(" ", null)
                .awsSigV4()).isEqualTo(new AwsSigV4("bedrock", "ap-northeast-1"));
        assertThat(Route.parse("/fips=https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com")
                .signedWithAwsSigV4(null, null).awsSigV4()).isEqualTo(new AwsSigV4("bedrock", "us-gov-west-1"));
        assertThat(Route.parse("/cn=https://bedrock-runtime.cn-north-1.amazonaws.com.cn")
                .signedWithAwsSigV4(null, null).awsSigV4()).isEqualTo(new AwsSigV4("bedrock", "cn-north-1"));
        assertThat(Route.parse("/bedrock=https://bedrock-runtime.us-east-1.amazonaws.com")
                .signedWithAwsSigV4(null, "us-west-2").awsSigV4()).as("what is given wins")
                .isEqualTo(new AwsSigV4("bedrock", "us-west-2"));
        assertThat(Route.parse("/sts=https://sts.us-east-1.amazonaws.com").signedWithAwsSigV4("sts", null)
                .awsSigV4()).as("another service names itself; its region is still inferred")
                .isEqualTo(new AwsSigV4("sts", "us-east-1"));
        assertThat(Route.parse("/plain=https://api.openai.com").awsSigV4()).isNull();
    }

    @Test
    void shouldRefuseAnAwsSigningItCannotInfer() {
        assertThatThrownBy(() -> Route.parse("/bedrock=http://127.0.0.1:4566").signedWithAwsSigV4(null, null))
                .hasMessageContaining("cannot infer the AWS SigV4 service and region of the route to 127.0.0.1")
                .hasMessageContaining("aws_sigv4: {service: bedrock, region: us-east-1}");
        assertThatThrownBy(() -> Route.parse("/kb=https://vpce-0a1b.bedrock-agent-runtime.eu-west-1.vpce"
                + ".amazonaws.com").signedWithAwsSigV4("bedrock", null))
                .hasMessageContaining("cannot infer the AWS SigV4 region");
        assertThatThrownBy(() -> Route.parse("/sts=https://sts.us-east-1.amazonaws.com").signedWithAwsSigV4(null, null))
                .as("only Bedrock's signing name is guessed")
                .hasMessageContaining("cannot infer the AWS SigV4 service");
        assertThat(Route.parse("/local=http://127.0.0.1:4566").signedWithAwsSigV4("bedrock", "us-east-1").awsSigV4())
                .isEqualTo(new AwsSigV4("bedrock", "us-east-1"));
    }
}
