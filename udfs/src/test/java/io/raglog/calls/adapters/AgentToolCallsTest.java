package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.JsonQueries;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/**
 * An agent's first turn on each chat API: asked the user's question with a search tool offered, the model calls the
 * tool with a query it wrote (beside a sentence announcing the call, where the API allows one). The turn is the run's
 * rewrite, its output what it asked of the tool: read as the text beside it, or as nothing, it was no stage.
 */
class AgentToolCallsTest {

    private static final String QUESTION = "What was Acme cash flow in 2023?";
    private static final String QUERY = "Acme cash flow 2023";
    private static final String ANNOUNCED = "I will search the filings for that.";

    @Test
    void shouldReadAnOpenAiFunctionCallToASearchToolAsARewrite() {
        assertRewrite(classified(post("https://api.openai.com/v1/chat/completions", "{'model':'gpt-4o-mini',"
                + "'messages':[{'role':'user','content':'" + QUESTION + "'}],'tools':[{'type':'function','function':"
                + "{'name':'search_kb','parameters':{'type':'object'}}}]}", 200, "{'model':'gpt-4o-mini','choices':[{"
                + "'message':{'role':'assistant','content':null,'tool_calls':[{'id':'c1','type':'function','function':"
                + "{'name':'search_kb','arguments':'{\\'query\\':\\'" + QUERY + "\\'}'}}]},'finish_reason':"
                + "'tool_calls'}]}")));
    }

    @Test
    void shouldReadAResponsesApiFunctionCallToASearchToolAsARewrite() {
        assertRewrite(classified(post("https://api.openai.com/v1/responses", "{'model':'gpt-4o-mini','input':'"
                + QUESTION + "','tools':[{'type':'function','name':'search_kb'}]}", 200, "{'model':'gpt-4o-mini',"
                + "'output':[{'type':'function_call','call_id':'c1','name':'search_kb','arguments':'{\\'query\\':"
                + "\\'" + QUERY + "\\'}'}]}")));
    }

    @Test
    void shouldReadAnAnthropicToolUseToASearchToolAsARewrite() {
        assertRewrite(classified(post("https://api.anthropic.com/v1/messages", "{'model':'claude-3-5-haiku-latest',"
                + "'max_tokens':512,'messages':[{'role':'user','content':'" + QUESTION + "'}],'tools':[{'name':"
                + "'search_kb','input_schema':{'type':'object'}}]}", 200, "{'type':'message','role':'assistant',"
                + "'model':'claude-3-5-haiku-20241022','content':[{'type':'text','text':'" + ANNOUNCED + "'},{'type':"
                + "'tool_use','id':'t1','name':'search_kb','input':{'query':'" + QUERY + "'}}],'stop_reason':"
                + "'tool_use'}")));
    }

    @Test
    void shouldReadAStreamedAnthropicToolUseToASearchToolAsARewrite() {
        String sse = event("message_start", "{'type':'message_start','message':{'model':'claude-3-5-haiku-20241022',"
                + "'usage':{'input_tokens':40,'output_tokens':1}}}")
                + event("content_block_start", "{'type':'content_block_start','index':0,'content_block':{'type':"
                + "'text','text':''}}")
                + event("content_block_delta", "{'type':'content_block_delta','index':0,'delta':{'type':'text_delta',"
                + "'text':'" + ANNOUNCED + "'}}")
                + event("content_block_start", "{'type':'content_block_start','index':1,'content_block':{'type':"
                + "'tool_use','id':'t1','name':'search_kb','input':{}}}")
                + event("content_block_delta", "{'type':'content_block_delta','index':1,'delta':{'type':"
                + "'input_json_delta','partial_json':'{\\'query\\': \\'Acme cash'}}")
                + event("content_block_delta", "{'type':'content_block_delta','index':1,'delta':{'type':"
                + "'input_json_delta','partial_json':' flow 2023\\'}'}}")
                + event("message_delta", "{'type':'message_delta','delta':{'stop_reason':'tool_use'},'usage':{"
                + "'output_tokens':30}}")
                + event("message_stop", "{'type':'message_stop'}");
        assertRewrite(classified(postWithTextReply("https://api.anthropic.com/v1/messages", "{'model':"
                + "'claude-3-5-haiku-latest','max_tokens':512,'stream':true,'messages':[{'role':'user','content':'"
                + QUESTION + "'}],'tools':[{'name':'search_kb','input_schema':{'type':'object'}}]}", 200, sse)));
    }

    /** The OpenAI Agents SDK streams its turns: a call's arguments come in deltas, and whole in the last event. */
    @Test
    void shouldReadAStreamedResponsesApiFunctionCallToASearchToolAsARewrite() {
        String call = "{'type':'function_call','call_id':'c1','name':'search_kb','arguments':'{\\'query\\':\\'"
                + QUERY + "\\'}'}";
        String sse = event("response.created", "{'type':'response.created','response':{'model':'gpt-4o-mini',"
                + "'output':[]}}")
                + event("response.output_item.added", "{'type':'response.output_item.added','output_index':0,"
                + "'item':{'type':'function_call','call_id':'c1','name':'search_kb','arguments':''}}")
                + event("response.function_call_arguments.delta", "{'type':'response.function_call_arguments.delta',"
                + "'output_index':0,'delta':'{\\'query\\':'}")
                + event("response.function_call_arguments.delta", "{'type':'response.function_call_arguments.delta',"
                + "'output_index':0,'delta':'\\'" + QUERY + "\\'}'}")
                + event("response.completed", "{'type':'response.completed','response':{'model':'gpt-4o-mini',"
                + "'output':[" + call + "],'usage':{'input_tokens':40,'output_tokens':12}}}");
        assertRewrite(classified(postWithTextReply("https://api.openai.com/v1/responses", "{'model':'gpt-4o-mini',"
                + "'stream':true,'input':'" + QUESTION + "','tools':[{'type':'function','name':'search_kb'}]}", 200,
                sse)));
    }

    /** One server-sent event, its JSON written with single quotes. */
    private static String event(String name, String singleQuotedJson) {
        return "event: " + name + "\ndata: " + singleQuotedJson.replace('\'', '"') + "\n\n";
    }

    @Test
    void shouldReadABedrockConverseToolUseToASearchToolAsARewrite() {
        assertRewrite(classified(post("https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-pro-v1%3A0/"
                + "converse", "{'messages':[{'role':'user','content':[{'text':'" + QUESTION + "'}]}],'toolConfig':{"
                + "'tools':[{'toolSpec':{'name':'search_kb'}}]}}", 200, "{'output':{'message':{'role':'assistant',"
                + "'content':[{'text':'" + ANNOUNCED + "'},{'toolUse':{'toolUseId':'t1','name':'search_kb','input':{"
                + "'query':'" + QUERY + "'}}}]}},'stopReason':'tool_use'}")));
    }

    /**
     * LangChain's {@code ChatBedrockConverse} streams through {@code converse-stream}: the tool call's input comes in
     * {@code contentBlockDelta} pieces of its own block, and {@code messageStop} says the turn stopped to use it.
     */
    @Test
    void shouldReadAStreamedBedrockConverseToolUseToASearchToolAsARewrite() {
        String sse = event("messageStart", "{'role':'assistant'}")
                + event("contentBlockDelta", "{'contentBlockIndex':0,'delta':{'text':'" + ANNOUNCED + "'}}")
                + event("contentBlockStop", "{'contentBlockIndex':0}")
                + event("contentBlockStart", "{'contentBlockIndex':1,'start':{'toolUse':{'toolUseId':'t1','name':"
                + "'search_kb'}}}")
                + event("contentBlockDelta", "{'contentBlockIndex':1,'delta':{'toolUse':{'input':'{\\'query\\': "
                + "\\'Acme cash'}}}")
                + event("contentBlockDelta", "{'contentBlockIndex':1,'delta':{'toolUse':{'input':' flow 2023\\'}'}}}")
                + event("contentBlockStop", "{'contentBlockIndex':1}")
                + event("messageStop", "{'stopReason':'tool_use'}")
                + event("metadata", "{'usage':{'inputTokens':40,'outputTokens':30,'totalTokens':70}}");
        assertRewrite(classified(postWithTextReply("https://bedrock-runtime.us-east-1.amazonaws.com/model/"
                + "amazon.nova-pro-v1%3A0/converse-stream", "{'messages':[{'role':'user','content':[{'text':'"
                + QUESTION + "'}]}],'toolConfig':{'tools':[{'toolSpec':{'name':'search_kb'}}]}}", 200, sse)));
    }

    /** A streamed turn that answers in text (its stop reason {@code end_turn}) is its text, tool offered or not. */
    @Test
    void shouldReadAStreamedBedrockConverseTurnThatUsedNoToolAsItsText() {
        String sse = event("messageStart", "{'role':'assistant'}")
                + event("contentBlockDelta", "{'contentBlockIndex':0,'delta':{'text':'Acme reported $4.1 billion.'}}")
                + event("messageStop", "{'stopReason':'end_turn'}");
        ChatDetail d = (ChatDetail) classified(postWithTextReply("https://bedrock-runtime.us-east-1.amazonaws.com/"
                + "model/amazon.nova-pro-v1%3A0/converse-stream", "{'messages':[{'role':'user','content':[{'text':'"
                + QUESTION + "'}]}],'toolConfig':{'tools':[{'toolSpec':{'name':'search_kb'}}]}}", 200, sse))
                .detail();
        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion.");
    }

    /** Gemini's {@code streamGenerateContent?alt=sse}: each piece an event, the call whole in one of them. */
    @Test
    void shouldReadAStreamedGeminiFunctionCallToASearchToolAsARewrite() {
        String sse = "data: " + ("{'candidates':[{'content':{'role':'model','parts':[{'text':'" + ANNOUNCED
                + "'}]}}]}").replace('\'', '"') + "\n\n"
                + "data: " + ("{'candidates':[{'content':{'role':'model','parts':[{'functionCall':{'name':'search_kb',"
                + "'args':{'query':'" + QUERY + "'}}}]},'finishReason':'STOP'}],'usageMetadata':{'promptTokenCount':"
                + "40,'candidatesTokenCount':12}}").replace('\'', '"') + "\n\n";
        assertRewrite(classified(postWithTextReply("https://generativelanguage.googleapis.com/v1beta/models/"
                + "gemini-2.0-flash:streamGenerateContent?alt=sse", "{'contents':[{'role':'user','parts':[{'text':'"
                + QUESTION + "'}]}],'tools':[{'functionDeclarations':[{'name':'search_kb'}]}]}", 200, sse)));
    }

    @Test
    void shouldReadAGeminiFunctionCallToASearchToolAsARewrite() {
        assertRewrite(classified(post("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:"
                + "generateContent", "{'contents':[{'role':'user','parts':[{'text':'" + QUESTION + "'}]}],'tools':[{"
                + "'functionDeclarations':[{'name':'search_kb'}]}]}", 200, "{'candidates':[{'content':{'role':'model',"
                + "'parts':[{'text':'" + ANNOUNCED + "'},{'functionCall':{'name':'search_kb','args':{'query':'" + QUERY
                + "'}}}]}}]}")));
    }

    private static void assertRewrite(ClassifiedCall call) {
        ChatDetail d = (ChatDetail) call.detail();
        assertThat(call.stage()).as("the stage of %s", d.adapter()).isEqualTo(Stage.REWRITE);
        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(JsonQueries.of(d.output())).containsExactly(QUERY);
    }
}
