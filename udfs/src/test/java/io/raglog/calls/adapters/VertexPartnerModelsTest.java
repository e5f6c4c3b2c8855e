package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.schemas.TokenUsage;
import org.junit.jupiter.api.Test;

/**
 * Partner models on Vertex AI: Claude through {@code :rawPredict} with Anthropic's Messages body, Mistral with
 * OpenAI's chat body, and open models through the OpenAI-compatible endpoint. The path names the model.
 */
class VertexPartnerModelsTest {

    private static final String MODELS = "https://us-east5-aiplatform.googleapis.com/v1/projects/acme-ir-prod/"
            + "locations/us-east5/publishers/";
    private static final String MESSAGES = "[{'role':'user','content':'Context: Operating cash flow was $4.1 billion "
            + "in 2023.\\n\\nQuestion: What was Acme cash flow in 2023?'}]";

    @Test
    void shouldReadClaudesMessagesBodyWholeAndStreamedWithTheModelTheVertexPathNames() {
        String request = "{'anthropic_version':'vertex-2023-10-16','max_tokens':300,'system':'Answer only from the "
                + "context.','messages':" + MESSAGES + "}";
        String claude = MODELS + "anthropic/models/claude-3-5-sonnet-v2@20241022";
        ChatDetail whole = (ChatDetail) classified(post(claude + ":rawPredict", request, 200, "{'id':"
                + "'msg_vrtx_1','type':'message','role':'assistant','content':[{'type':'text','text':"
                + "'Acme reported $4.1 billion.'}],'stop_reason':'end_turn','usage':{'input_tokens':58,"
                + "'output_tokens':9}}")).detail();
        String events = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_vrtx_2\","
                + "\"usage\":{\"input_tokens\":58,\"output_tokens\":1}}}\n\n"
                + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":\"Acme reported $4.1 billion.\"}}\n\n"
                + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                + "\"usage\":{\"output_tokens\":9}}\n\n"
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply(claude + ":streamRawPredict", request, 200,
                events)).detail();
        ChatDetail overloaded = (ChatDetail) classified(post(claude + ":rawPredict", request, 529, "{'type':'error',"
                + "'error':{'type':'overloaded_error','message':'Overloaded'}}")).detail();

        assertThat(whole.adapter()).isEqualTo("anthropic.messages");
        assertThat(whole.model()).isEqualTo("claude-3-5-sonnet-v2@20241022");
        assertThat(whole.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(whole.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(whole.streamed()).isFalse();
        assertThat(streamed.adapter()).isEqualTo("anthropic.messages");
        assertThat(streamed.model()).isEqualTo("claude-3-5-sonnet-v2@20241022");
        assertThat(streamed.output()).isEqualTo(whole.output());
        assertThat(streamed.usage()).isEqualTo(whole.usage()).isEqualTo(new TokenUsage(58, 9));
        assertThat(streamed.streamed()).isTrue();
        assertThat(overloaded.model()).isEqualTo("claude-3-5-sonnet-v2@20241022");
        assertThat(overloaded.output()).isNull();
    }

    @Test
    void shouldReadMistralsOpenAiBodyWholeAndStreamedWithTheModelFromThePathWhenTheBodyNamesNone() {
        String request = "{'messages':" + MESSAGES + ",'max_tokens':300}";
        String mistral = MODELS + "mistralai/models/mistral-large-2411";
        ChatDetail whole = (ChatDetail) classified(post(mistral + ":rawPredict", request, 200, "{'id':'c1','object':"
                + "'chat.completion','choices':[{'index':0,'message':{'role':'assistant','content':"
                + "'Acme reported $4.1 billion.'},'finish_reason':'stop'}],'usage':{'prompt_tokens':58,"
                + "'completion_tokens':9,'total_tokens':67}}")).detail();
        String chunks = "data: {\"id\":\"c2\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"Acme reported \"}}]}\n\n"
                + "data: {\"id\":\"c2\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"$4.1 billion.\"},\"finish_reason\":\"stop\"}],\"usage\":"
                + "{\"prompt_tokens\":58,\"completion_tokens\":9,\"total_tokens\":67}}\n\n"
                + "data: [DONE]\n\n";
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply(mistral + ":streamRawPredict",
                "{'messages':" + MESSAGES + ",'stream':true}", 200, chunks)).detail();
        ChatDetail named = (ChatDetail) classified(post(mistral + ":rawPredict", "{'model':'mistral-large',"
                + "'messages':" + MESSAGES + "}", 429, "{'error':{'code':429,'status':'RESOURCE_EXHAUSTED'}}"))
                .detail();

        assertThat(whole.adapter()).isEqualTo("openai.chat");
        assertThat(whole.model()).isEqualTo("mistral-large-2411");
        assertThat(whole.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(whole.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(whole.usage()).isEqualTo(new TokenUsage(58, 9));
        assertThat(streamed.adapter()).isEqualTo("openai.chat");
        assertThat(streamed.model()).isEqualTo("mistral-large-2411");
        assertThat(streamed.output()).isEqualTo(whole.output());
        assertThat(streamed.streamed()).isTrue();
        assertThat(named.model()).as("the body's model when it names one").isEqualTo("mistral-large");
    }

    @Test
    void shouldReadLlamaThroughTheOpenAiCompatibleEndpoint() {
        ChatDetail d = (ChatDetail) classified(post("https://us-central1-aiplatform.googleapis.com/v1beta1/projects/"
                + "acme-ir-prod/locations/us-central1/endpoints/openapi/chat/completions", "{'model':"
                + "'meta/llama-3.3-70b-instruct-maas','messages':" + MESSAGES + "}", 200, "{'choices':[{'index':0,"
                + "'message':{'role':'assistant','content':'Acme reported $4.1 billion.'},'finish_reason':'stop'}],"
                + "'model':'meta/llama-3.3-70b-instruct-maas','object':'chat.completion','usage':{'prompt_tokens':58,"
                + "'completion_tokens':9,'total_tokens':67}}")).detail();

        assertThat(d.adapter()).isEqualTo("openai.chat");
        assertThat(d.model()).isEqualTo("meta/llama-3.3-70b-instruct-maas");
        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion.");
    }

    @Test
    void shouldLeaveARawPredictThatIsNeitherShapeToOtherReaders() {
        var custom = post("https://us-central1-aiplatform.googleapis.com/v1/projects/acme-ir-prod/locations/"
                + "us-central1/endpoints/1234567890:rawPredict", "{'inputs':[[0.1,0.2]]}", 200, "{'outputs':[1]}");

        assertThat(new OpenAiChatAdapter().accepts(custom)).isFalse();
        assertThat(new AnthropicMessagesAdapter().accepts(custom)).isFalse();
        assertThat(new OpenAiChatAdapter().accepts(post(MODELS + "anthropic/models/claude-sonnet-4@20250514"
                + ":rawPredict", "{'anthropic_version':'vertex-2023-10-16','messages':" + MESSAGES + "}", 200,
                "{}"))).isFalse();
    }
}
