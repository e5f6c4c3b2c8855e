package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.bedrockChunk;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.ChatRole;
import io.raglog.schemas.TokenUsage;
import org.junit.jupiter.api.Test;

/**
 * Models invoked on Bedrock with their own text-completion bodies, a chat written into one prompt with the model's
 * template, and Command R with Cohere's chat body: the same question, passages and answer as any generator call.
 */
class BedrockTextAdapterTest {

    private static final String RUNTIME = "https://bedrock-runtime.us-east-1.amazonaws.com/model/";
    private static final String CONTEXT = "Context:\\n[1] Operating cash flow was $4.1 billion in 2023.\\n\\n[2] "
            + "Revenue grew 12% in 2022.\\n\\nQuestion: What was Acme cash flow in 2023?";
    private static final String SYSTEM = "Answer only from the context. Say you do not know otherwise.";

    @Test
    void shouldReadBackTheMessagesATemplateWroteIntoOnePrompt() {
        String llama3 = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nWhat was Acme cash flow?<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\n\n";
        String llama2 = "<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nWhat was Acme revenue? [/INST] $10 billion. </s>"
                + "<s>[INST] And its cash flow? [/INST]";

        assertThat(PromptTemplates.messages(llama3)).containsExactly(new ChatMessage("system", "Be brief."),
                new ChatMessage("user", "What was Acme cash flow?"));
        assertThat(PromptTemplates.messages(llama2)).containsExactly(new ChatMessage("system", "Be brief."),
                new ChatMessage("user", "What was Acme revenue?"), new ChatMessage("assistant", "$10 billion."),
                new ChatMessage("user", "And its cash flow?"));
        assertThat(PromptTemplates.messages("Question: What was Acme cash flow?"))
                .containsExactly(new ChatMessage("user", "Question: What was Acme cash flow?"));
    }

    @Test
    void shouldReadALlamaCallWholeAndStreamedAsTheSameGeneratorCall() {
        String request = "{'prompt':'<|begin_of_text|><|start_header_id|>system<|end_header_id|>\\n\\n" + SYSTEM
                + "<|eot_id|><|start_header_id|>user<|end_header_id|>\\n\\n" + CONTEXT + "<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\\n\\n','max_gen_len':256,'temperature':0}";
        String model = RUNTIME + "meta.llama3-1-70b-instruct-v1%3A0";
        ChatDetail whole = (ChatDetail) classified(post(model + "/invoke", request, 200, "{'generation':"
                + "'Acme reported $4.1 billion.','prompt_token_count':71,'generation_token_count':9,"
                + "'stop_reason':'stop'}")).detail();
        String chunks = bedrockChunk("{\"generation\":\"Acme reported \",\"prompt_token_count\":71,"
                + "\"generation_token_count\":3,\"stop_reason\":null}")
                + bedrockChunk("{\"generation\":\"$4.1 billion.\",\"prompt_token_count\":null,"
                        + "\"generation_token_count\":9,\"stop_reason\":\"stop\",\"amazon-bedrock-invocationMetrics\":{\"inputTokenCount\":71,"
                        + "\"outputTokenCount\":9}}");
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply(model + "/invoke-with-response-stream",
                request, 200, chunks)).detail();

        assertThat(whole.adapter()).isEqualTo("bedrock.text");
        assertThat(whole.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(whole.model()).isEqualTo("meta.llama3-1-70b-instruct-v1:0");
        assertThat(whole.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(whole.contextPassages()).containsExactly("Operating cash flow was $4.1 billion in 2023.",
                "Revenue grew 12% in 2022.");
        assertThat(whole.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(whole.usage()).isEqualTo(new TokenUsage(71, 9));
        assertThat(streamed.output()).isEqualTo(whole.output());
        assertThat(streamed.usage()).isEqualTo(whole.usage());
        assertThat(streamed.streamed()).isTrue();
    }

    @Test
    void shouldReadMistralsAndTitansReplies() {
        ChatDetail mistral = (ChatDetail) classified(post(RUNTIME + "mistral.mistral-large-2402-v1%3A0/invoke",
                "{'prompt':'<s>[INST] " + CONTEXT + " [/INST]','max_tokens':200}", 200,
                "{'outputs':[{'text':'Acme reported $4.1 billion.','stop_reason':'stop'}]}")).detail();
        ChatDetail titan = (ChatDetail) classified(post(RUNTIME + "amazon.titan-text-premier-v1%3A0/invoke",
                "{'inputText':'" + CONTEXT + "','textGenerationConfig':{'maxTokenCount':200}}", 200,
                "{'inputTextTokenCount':52,'results':[{'tokenCount':8,'outputText':'Acme reported $4.1 billion.',"
                        + "'completionReason':'FINISH'}]}")).detail();

        assertThat(mistral.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(mistral.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(titan.adapter()).isEqualTo("bedrock.text");
        assertThat(titan.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(titan.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(titan.usage()).isEqualTo(new TokenUsage(52, 8));
    }

    @Test
    void shouldReadCommandROnBedrockAsCoheresChatWholeAndStreamed() {
        String request = "{'message':'What was Acme cash flow in 2023?','preamble':'" + SYSTEM + "','documents':["
                + "{'title':'10-K','snippet':'Operating cash flow was $4.1 billion in 2023.'},{'title':'10-K',"
                + "'snippet':'Revenue grew 12% in 2022.'}]}";
        String model = RUNTIME + "cohere.command-r-plus-v1%3A0";
        ChatDetail whole = (ChatDetail) classified(post(model + "/invoke", request, 200,
                "{'response_id':'r1','text':'Acme reported $4.1 billion.','finish_reason':'COMPLETE'}")).detail();
        String chunks = bedrockChunk("{\"is_finished\":false,\"event_type\":\"stream-start\",\"generation_id\":\"g1\"}")
                + bedrockChunk("{\"is_finished\":false,\"event_type\":\"text-generation\",\"text\":\"Acme reported \"}")
                + bedrockChunk("{\"is_finished\":false,\"event_type\":\"text-generation\",\"text\":\"$4.1 billion.\"}")
                + bedrockChunk("{\"is_finished\":true,\"event_type\":\"stream-end\",\"finish_reason\":\"COMPLETE\","
                        + "\"response\":{\"text\":\"Acme reported $4.1 billion.\"}}");
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply(model + "/invoke-with-response-stream",
                request, 200, chunks)).detail();

        assertThat(whole.adapter()).isEqualTo("cohere.chat");
        assertThat(whole.model()).isEqualTo("cohere.command-r-plus-v1:0");
        assertThat(whole.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(whole.contextPassages()).hasSize(2);
        assertThat(whole.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(streamed.output()).isEqualTo(whole.output());
        assertThat(streamed.streamed()).isTrue();
    }
}
