package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.bedrockChunk;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatRole;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * Chat models on Amazon Bedrock as a RAG pipeline's generator calls them: the Converse API whole and streamed, Nova's
 * and Claude's own bodies through invoke, and the ways a stream ends early.
 */
class BedrockConverseAdapterTest {

    private static final String RUNTIME = "https://bedrock-runtime.us-east-1.amazonaws.com/model/";

    private static final String CONVERSE = "{'system':[{'text':'Answer only from the context.'}],'messages':[{'role':"
            + "'user','content':[{'text':'Context:\\n[1] Operating cash flow was $4.1 billion in 2023.\\n\\n"
            + "[2] Revenue grew 12% in 2022.\\n\\nQuestion: What was Acme cash flow in 2023?'}]}],"
            + "'inferenceConfig':{'maxTokens':300}}";

    @Test
    void shouldReadAConverseCallAsAGeneratorCallWithItsCachedPromptTokensCounted() {
        var call = classified(post(RUNTIME + "amazon.nova-pro-v1%3A0/converse", CONVERSE, 200, "{'output':{'message':"
                + "{'role':'assistant','content':[{'text':'Acme reported $4.1 billion.'}]}},'stopReason':'end_turn',"
                + "'usage':{'inputTokens':40,'outputTokens':9,'cacheReadInputTokens':18,'totalTokens':67}}"));

        assertThat(call.stage()).isEqualTo(Stage.GENERATE);
        ChatDetail d = (ChatDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("bedrock.converse");
        assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(d.model()).isEqualTo("amazon.nova-pro-v1:0");
        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.contextPassages()).containsExactly("Operating cash flow was $4.1 billion in 2023.",
                "Revenue grew 12% in 2022.");
        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(d.usage()).isEqualTo(new TokenUsage(58, 9));
        assertThat(d.streamed()).isFalse();
    }

    @Test
    void shouldReadDocumentBlocksAsThePassagesAndACitedReplyAsOneText() {
        String request = "{'messages':[{'role':'user','content':["
                + document("p1", "txt", "Operating cash flow was $4.1 billion in 2023.")
                + "," + document("p2", "md", "Revenue grew 12% in 2022.")
                + ",{'document':{'format':'pdf','name':'scan','source':{'bytes':'JVBERi0xLjQK'}}}"
                + ",{'text':'What was Acme cash flow in 2023?'}]}]}";
        ChatDetail d = (ChatDetail) classified(post(RUNTIME + "anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse",
                request, 200, "{'output':{'message':{'role':'assistant','content':[{'text':'Acme reported '},"
                        + "{'citationsContent':{'content':[{'text':'$4.1 billion'}],'citations':[{'title':'p1'}]}},"
                        + "{'text':' in 2023.'}]}},'usage':{'inputTokens':80,'outputTokens':12}}")).detail();

        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.contextPassages()).containsExactly("Operating cash flow was $4.1 billion in 2023.",
                "Revenue grew 12% in 2022.");
        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion in 2023.");
    }

    @Test
    void shouldReadAConverseStreamAsTheProxyRecordsItsEventStream() {
        String events = "event: messageStart\ndata: {\"role\":\"assistant\",\"p\":\"ab\"}\n\n"
                + delta("Acme reported ") + delta("$4.1 billion.")
                + "event: contentBlockStop\ndata: {\"contentBlockIndex\":0}\n\n"
                + "event: messageStop\ndata: {\"stopReason\":\"end_turn\"}\n\n"
                + "event: metadata\ndata: {\"usage\":{\"inputTokens\":58,\"outputTokens\":9},\"metrics\":"
                + "{\"latencyMs\":420}}\n\n";
        ChatDetail d = (ChatDetail) classified(postWithTextReply(RUNTIME + "amazon.nova-lite-v1%3A0/converse-stream",
                CONVERSE, 200, events)).detail();

        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(d.usage()).isEqualTo(new TokenUsage(58, 9));
        assertThat(d.streamed()).isTrue();
    }

    @Test
    void shouldKeepWhatAStreamGaveBeforeAnExceptionEndedIt() {
        String events = delta("Acme reported ") + "event: throttlingException\ndata: {\"message\":\"Too many "
                + "requests, please wait before trying again.\"}\n\n" + delta("never sent");
        ChatDetail d = (ChatDetail) classified(postWithTextReply(RUNTIME + "amazon.nova-lite-v1%3A0/converse-stream",
                CONVERSE, 200, events)).detail();

        assertThat(d.output()).isEqualTo("Acme reported ");
        assertThat(d.usage()).isEqualTo(TokenUsage.UNKNOWN);
    }

    @Test
    void shouldReadAFailedCallsPromptAndNoAnswer() {
        ChatDetail d = (ChatDetail) classified(post(RUNTIME + "amazon.nova-lite-v1%3A0/converse", CONVERSE, 429,
                "{'message':'Too many requests, please wait before trying again.'}")).detail();

        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.output()).isNull();
    }

    @Test
    void shouldReadNovasOwnInvokeBodyWholeAndStreamedInChunks() {
        String request = CONVERSE.replace("{'system'", "{'schemaVersion':'messages-v1','system'");
        ChatDetail whole = (ChatDetail) classified(post(RUNTIME + "amazon.nova-micro-v1%3A0/invoke", request, 200,
                "{'output':{'message':{'role':'assistant','content':[{'text':'Acme reported $4.1 billion.'}]}},"
                        + "'stopReason':'end_turn','usage':{'inputTokens':58,'outputTokens':9}}")).detail();
        String chunks = bedrockChunk("{\"messageStart\":{\"role\":\"assistant\"}}")
                + bedrockChunk("{\"contentBlockDelta\":{\"delta\":{\"text\":\"Acme reported \"},"
                        + "\"contentBlockIndex\":0}}")
                + bedrockChunk("{\"contentBlockDelta\":{\"delta\":{\"text\":\"$4.1 billion.\"},"
                        + "\"contentBlockIndex\":0}}")
                + bedrockChunk("{\"metadata\":{\"usage\":{\"inputTokens\":58,\"outputTokens\":9}},"
                        + "\"amazon-bedrock-invocationMetrics\":{\"inputTokenCount\":58,\"outputTokenCount\":9}}");
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply(
                RUNTIME + "amazon.nova-micro-v1%3A0/invoke-with-response-stream", request, 200, chunks)).detail();

        assertThat(whole.adapter()).isEqualTo("bedrock.converse");
        assertThat(whole.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(streamed.output()).isEqualTo(whole.output());
        assertThat(streamed.usage()).isEqualTo(whole.usage()).isEqualTo(new TokenUsage(58, 9));
        assertThat(streamed.streamed()).isTrue();
    }

    @Test
    void shouldReadAModelInvokedWithOpenAisChatBodyWholeAndStreamed() {
        String request = "{'messages':[{'role':'system','content':'Answer only from the context.'},{'role':'user',"
                + "'content':'Context:\\n[1] Operating cash flow was $4.1 billion in 2023.\\n\\n[2] Revenue grew 12% "
                + "in 2022.\\n\\nQuestion: What was Acme cash flow in 2023?'}],'max_tokens':300}";
        String model = RUNTIME + "mistral.mistral-large-2407-v1%3A0";
        ChatDetail whole = (ChatDetail) classified(post(model + "/invoke", request, 200, "{'id':'c1','choices':[{"
                + "'index':0,'message':{'role':'assistant','content':'Acme reported $4.1 billion.'},'finish_reason':"
                + "'stop'}],'usage':{'prompt_tokens':58,'completion_tokens':9}}")).detail();
        String chunks = bedrockChunk("{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                + "\"content\":\"Acme reported \"}}]}")
                + bedrockChunk("{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"$4.1 billion.\"},"
                        + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":58,\"completion_tokens\":9}}");
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply(model + "/invoke-with-response-stream",
                request, 200, chunks)).detail();

        assertThat(whole.adapter()).isEqualTo("bedrock.converse");
        assertThat(whole.model()).isEqualTo("mistral.mistral-large-2407-v1:0");
        assertThat(whole.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(whole.contextPassages()).hasSize(2);
        assertThat(whole.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(whole.usage()).isEqualTo(new TokenUsage(58, 9));
        assertThat(streamed.output()).isEqualTo(whole.output());
        assertThat(streamed.usage()).isEqualTo(whole.usage());
    }

    @Test
    void shouldReadClaudesOwnBodyInvokedOnBedrockAsAnthropicsMessages() {
        String request = "{'anthropic_version':'bedrock-2023-05-31','max_tokens':300,'system':'Answer only from the "
                + "context.','messages':" + CONVERSE.substring(CONVERSE.indexOf("[{'role'"),
                        CONVERSE.indexOf(",'inferenceConfig'")) + "}";
        String model = RUNTIME + "anthropic.claude-3-haiku-20240307-v1%3A0";
        ChatDetail whole = (ChatDetail) classified(post(model + "/invoke", request, 200, "{'id':'msg_bdrk_1','type':"
                + "'message','role':'assistant','content':[{'type':'text','text':'Acme reported $4.1 billion.'}],"
                + "'stop_reason':'end_turn','usage':{'input_tokens':58,'output_tokens':9}}")).detail();
        String chunks = bedrockChunk("{\"type\":\"message_start\",\"message\":{\"model\":\"claude-3-haiku-20240307\","
                + "\"usage\":{\"input_tokens\":58,\"output_tokens\":1}}}")
                + bedrockChunk("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
                        + "\"text\":\"Acme reported $4.1 billion.\"}}")
                + bedrockChunk("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":"
                        + "{\"output_tokens\":9}}")
                + bedrockChunk("{\"type\":\"message_stop\",\"amazon-bedrock-invocationMetrics\":"
                        + "{\"inputTokenCount\":58}}");
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply(model + "/invoke-with-response-stream",
                request, 200, chunks)).detail();

        assertThat(whole.adapter()).isEqualTo("anthropic.messages");
        assertThat(whole.model()).isEqualTo("anthropic.claude-3-haiku-20240307-v1:0");
        assertThat(whole.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(whole.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(streamed.output()).isEqualTo(whole.output());
        assertThat(streamed.usage()).isEqualTo(whole.usage()).isEqualTo(new TokenUsage(58, 9));
        assertThat(streamed.model()).isEqualTo("claude-3-haiku-20240307");
    }

    @Test
    void shouldReadARetrievalToolsResultAsThePassagesOfAnAgenticTurn() {
        String request = "{'messages':[{'role':'user','content':[{'text':'What was Acme cash flow in 2023?'}]},"
                + "{'role':'assistant','content':[{'toolUse':{'toolUseId':'t1','name':'search_kb','input':{'query':"
                + "'Acme cash flow 2023'}}}]},{'role':'user','content':[{'toolResult':{'toolUseId':'t1','content':"
                + "[{'text':'Operating cash flow was $4.1 billion in 2023.'},{'text':'Revenue grew 12% in 2022.'}]}}]}"
                + "]}";
        ChatDetail d = (ChatDetail) classified(post(RUNTIME + "amazon.nova-pro-v1%3A0/converse", request, 200,
                "{'output':{'message':{'role':'assistant','content':[{'text':'Acme reported $4.1 billion.'}]}}}"))
                .detail();

        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.contextPassages()).containsExactly("Operating cash flow was $4.1 billion in 2023.",
                "Revenue grew 12% in 2022.");
    }

    private static String document(String name, String format, String text) {
        return "{'document':{'format':'" + format + "','name':'" + name + "','source':{'bytes':'"
                + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)) + "'}}}";
    }

    private static String delta(String text) {
        return "event: contentBlockDelta\ndata: {\"contentBlockIndex\":0,\"delta\":{\"text\":\"" + text + "\"},"
                + "\"p\":\"abc\"}\n\n";
    }
}
