package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatRole;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import org.junit.jupiter.api.Test;

/**
 * Cohere's Chat API as a Cohere RAG pipeline calls it: the passages in {@code documents}, the question in the
 * messages; read as a generator call whose context is the documents.
 */
class CohereChatAdapterTest {

    private static final String V2_REQUEST = "{'model':'command-r-plus-08-2024','messages':[{'role':'system',"
            + "'content':'Answer from the documents.'},{'role':'user','content':'What was Acme cash flow in 2023?'}],"
            + "'documents':[{'id':'d1','data':{'title':'10-K','snippet':'Operating cash flow was $4.1 billion in "
            + "2023.'}},'Revenue grew 12% in 2022.']";

    @Test
    void shouldReadAV2ChatWithDocumentsAsAGeneratorCallOverThem() {
        var call = classified(post("https://api.cohere.com/v2/chat", V2_REQUEST + "}", 200,
                "{'id':'r1','finish_reason':'COMPLETE','message':{'role':'assistant','content':[{'type':'text',"
                        + "'text':'Acme reported $4.1 billion.'}],'citations':[{'start':14,'end':27,'text':"
                        + "'$4.1 billion','sources':[{'type':'document','id':'d1'}]}]},'usage':{'billed_units':"
                        + "{'input_tokens':31,'output_tokens':6},'tokens':{'input_tokens':812,'output_tokens':6}}}"));
        assertThat(call.stage()).isEqualTo(Stage.GENERATE);
        ChatDetail d = (ChatDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("cohere.chat");
        assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.contextPassages()).containsExactly("Operating cash flow was $4.1 billion in 2023.",
                "Revenue grew 12% in 2022.");
        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(d.usage()).isEqualTo(new TokenUsage(812, 6));
    }

    @Test
    void shouldReadAV2StreamAsTheSameAnswer() {
        String stream = "event: message-start\ndata: {\"type\":\"message-start\",\"id\":\"r1\"}\n\n"
                + "event: content-delta\ndata: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":"
                + "{\"content\":{\"text\":\"Acme reported \"}}}}\n\n"
                + "event: content-delta\ndata: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":"
                + "{\"content\":{\"text\":\"$4.1 billion.\"}}}}\n\n"
                + "event: message-end\ndata: {\"type\":\"message-end\",\"delta\":{\"finish_reason\":\"COMPLETE\","
                + "\"usage\":{\"tokens\":{\"input_tokens\":812,\"output_tokens\":6}}}}\n\n";
        ChatDetail d = (ChatDetail) classified(postWithTextReply("https://api.cohere.com/v2/chat",
                V2_REQUEST + ",'stream':true}", 200, stream)).detail();
        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(d.usage()).isEqualTo(new TokenUsage(812, 6));
        assertThat(d.contextPassages()).hasSize(2);
    }

    @Test
    void shouldReadAV1ChatWithItsPreambleHistoryAndDocuments() {
        String request = "{'model':'command-r','preamble':'Answer from the documents.','chat_history':[{'role':'USER',"
                + "'message':'Hi'},{'role':'CHATBOT','message':'Hello, how can I help?'}],'message':"
                + "'What was Acme cash flow in 2023?','documents':[{'title':'10-K','snippet':'Operating cash flow was "
                + "$4.1 billion in 2023.'}]";
        ChatDetail d = (ChatDetail) classified(post("https://api.cohere.ai/v1/chat", request + "}", 200,
                "{'text':'Acme reported $4.1 billion.','generation_id':'g1','meta':{'billed_units':"
                        + "{'input_tokens':40,'output_tokens':6}}}")).detail();
        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.contextPassages()).containsExactly("Operating cash flow was $4.1 billion in 2023.");
        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(d.usage()).isEqualTo(new TokenUsage(40, 6));

        String lines = "{\"is_finished\":false,\"event_type\":\"stream-start\",\"generation_id\":\"g1\"}\n"
                + "{\"is_finished\":false,\"event_type\":\"text-generation\",\"text\":\"Acme reported \"}\n"
                + "{\"is_finished\":false,\"event_type\":\"text-generation\",\"text\":\"$4.1 billion.\"}\n"
                + "{\"is_finished\":true,\"event_type\":\"stream-end\",\"finish_reason\":\"COMPLETE\",\"response\":"
                + "{\"text\":\"Acme reported $4.1 billion.\",\"meta\":{\"billed_units\":{\"input_tokens\":40,"
                + "\"output_tokens\":6}}}}\n";
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply("https://api.cohere.ai/v1/chat",
                request + ",'stream':true}", 200, lines)).detail();
        assertThat(streamed.output()).isEqualTo("Acme reported $4.1 billion.");
        assertThat(streamed.usage()).isEqualTo(new TokenUsage(40, 6));
    }

    @Test
    void shouldReadSearchQueriesOnlyAsTheRewriteAndAMessageNeedingNoSearchAsNoStage() {
        var rewrite = classified(post("https://api.cohere.com/v1/chat", "{'model':'command-r-plus','message':"
                + "'What was Acme cash flow in 2023?','search_queries_only':true}", 200, "{'text':'','search_queries':"
                + "[{'text':'Acme operating cash flow 2023','generation_id':'g1'}],'finish_reason':'COMPLETE'}"));
        var none = classified(post("https://api.cohere.com/v1/chat", "{'model':'command-r-plus','message':"
                + "'Thanks!','search_queries_only':true}", 200, "{'text':'','search_queries':[],'finish_reason':"
                + "'COMPLETE'}"));

        assertThat(rewrite.stage()).isEqualTo(Stage.REWRITE);
        ChatDetail d = (ChatDetail) rewrite.detail();
        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.output()).isEqualTo("Acme operating cash flow 2023");
        assertThat(none.stage()).isNull();
    }
}
