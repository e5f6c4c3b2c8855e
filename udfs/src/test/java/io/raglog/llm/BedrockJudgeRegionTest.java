package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The AWS region the bedrock judge talks to and signs for, and the endpoint it defaults to. */
class BedrockJudgeRegionTest {

    private final SystemProperties properties = new SystemProperties();

    @AfterEach
    void restore() {
        properties.close();
    }

    private static LlmSettings bedrock(String... settings) {
        Map<String, String> env = new HashMap<>(Map.of(LlmSettings.PROVIDER, "bedrock", LlmSettings.MODEL,
                "amazon.nova-lite-v1:0"));
        for (int i = 0; i < settings.length; i += 2) {
            env.put(settings[i], settings[i + 1]);
        }
        return LlmSettings.fromEnv(env);
    }

    @Test
    void shouldReadTheRegionOffAwsOwnHostNamesOnly() {
        assertThat(BedrockRegion.ofHost("https://bedrock-runtime.eu-west-1.amazonaws.com")).isEqualTo("eu-west-1");
        assertThat(BedrockRegion.ofHost("https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com"))
                .isEqualTo("us-gov-west-1");
        assertThat(BedrockRegion.ofHost("https://vpce-0a1b2c3d-4e5f.bedrock-runtime.ap-south-1.vpce.amazonaws.com"))
                .isEqualTo("ap-south-1");
        assertThat(BedrockRegion.ofHost("https://bedrock-runtime.cn-north-1.amazonaws.com.cn")).isEqualTo("cn-north-1");
        assertThat(BedrockRegion.ofHost("https://BEDROCK-RUNTIME.US-EAST-2.AMAZONAWS.COM")).isEqualTo("us-east-2");
        assertThat(BedrockRegion.ofHost("https://bedrock.us-east-1.amazonaws.com")).as("the control plane").isNull();
        assertThat(BedrockRegion.ofHost("http://raglog-proxy:8080/bedrock")).isNull();
        assertThat(BedrockRegion.ofHost("http://127.0.0.1:9000")).isNull();
    }

    @Test
    void shouldDefaultToTheRuntimeEndpointOfTheRegionConfigured() {
        assertThat(bedrock(LlmSettings.REGION, "eu-central-1").baseUrl())
                .isEqualTo("https://bedrock-runtime.eu-central-1.amazonaws.com");
        assertThat(bedrock(LlmSettings.REGION, "cn-northwest-1").baseUrl())
                .isEqualTo("https://bedrock-runtime.cn-northwest-1.amazonaws.com.cn");
        properties.set("aws.region", "ap-northeast-1"); // read as the SDK reads AWS_REGION, before it
        assertThat(bedrock().baseUrl()).isEqualTo("https://bedrock-runtime.ap-northeast-1.amazonaws.com");
        assertThat(bedrock(LlmSettings.REGION, "eu-west-3").baseUrl())
                .as("llm.region before AWS_REGION").isEqualTo("https://bedrock-runtime.eu-west-3.amazonaws.com");
        assertThat(bedrock(LlmSettings.BASE_URL, "http://raglog-proxy:8080/bedrock/").baseUrl())
                .isEqualTo("http://raglog-proxy:8080/bedrock");
    }

    @Test
    void shouldSayWhatIsMissingOrWrong() {
        assumeTrue(System.getenv("AWS_REGION") == null, "AWS_REGION is set in this environment");
        assertThatThrownBy(() -> bedrock()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RAGLOG_LLM_BASE_URL is required for provider bedrock (or RAGLOG_LLM_REGION, or"
                        + " AWS_REGION)");
        assertThatThrownBy(() -> bedrock(LlmSettings.REGION, "US East (Ohio)"))
                .hasMessage("RAGLOG_LLM_REGION must be an AWS region such as us-east-1, not 'US East (Ohio)'");
    }

    @Test
    void shouldSignForTheHostsRegionElseTheOneConfiguredElseTheSdksChain() {
        assertThat(BedrockRegion.toSignFor(bedrock(LlmSettings.BASE_URL,
                "https://bedrock-runtime.eu-west-1.amazonaws.com"))).isEqualTo("eu-west-1");
        assertThat(BedrockRegion.toSignFor(bedrock(LlmSettings.BASE_URL,
                "https://bedrock-runtime.eu-west-1.amazonaws.com", LlmSettings.REGION, "eu-west-1")))
                .isEqualTo("eu-west-1");
        assertThat(BedrockRegion.toSignFor(bedrock(LlmSettings.BASE_URL, "http://raglog-proxy:8080/bedrock",
                LlmSettings.REGION, "sa-east-1"))).isEqualTo("sa-east-1");
        properties.set("aws.region", "ca-central-1");
        assertThat(BedrockRegion.toSignFor(bedrock(LlmSettings.BASE_URL, "http://raglog-proxy:8080/bedrock")))
                .isEqualTo("ca-central-1");

        assertThatThrownBy(() -> BedrockRegion.toSignFor(bedrock(LlmSettings.BASE_URL,
                "https://bedrock-runtime.eu-west-1.amazonaws.com", LlmSettings.REGION, "us-east-1")))
                .hasMessage("RAGLOG_LLM_REGION us-east-1 contradicts RAGLOG_LLM_BASE_URL, whose host is in eu-west-1;"
                        + " leave RAGLOG_LLM_REGION unset or make them agree");
    }
}
