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

/** Gemini's generateContent as a RAG pipeline's generator calls it, whole and streamed. */
class GeminiGenerateAdapterTest {

    private static final String REQUEST = "{'systemInstruction':{'parts':[{'text':'Answer using only the context "
            + "below.'}]},'contents':[{'role':'user','parts':[{'text':'Context:\\n[1] Operating cash flow was $4.1 "
            + "billion in 2023.\\n\\n[2] Revenue grew 12% in 2022.\\n\\nQuestion: What was Acme cash flow in "
            + "2023?'}]}],"
            + "'generationConfig':{'temperature':0}}";

    @Test
    void shouldReadAGenerateContentCallAsAGeneratorCall() {
        var call = classified(post("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash"
                + ":generateContent", REQUEST, 200, "{'candidates':[{'content':{'role':'model','parts':[{'text':"
                + "'Acme reported $4.1 billion [1].'}]},'finishReason':'STOP'}],'usageMetadata':{'promptTokenCount':"
                + "58,'candidatesTokenCount':9,'totalTokenCount':67},'modelVersion':'gemini-2.0-flash-001'}"));
        assertThat(call.stage()).isEqualTo(Stage.GENERATE);
        ChatDetail d = (ChatDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("gemini.generate");
        assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(d.model()).isEqualTo("gemini-2.0-flash-001");
        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.contextPassages()).containsExactly("Operating cash flow was $4.1 billion in 2023.",
                "Revenue grew 12% in 2022.");
        assertThat(d.output()).isEqualTo("Acme reported $4.1 billion [1].");
        assertThat(d.usage()).isEqualTo(new TokenUsage(58, 9));
    }

    @Test
    void shouldReadAStreamedReplyAsTheSameAnswerFromEventsOrAnArray() {
        String events = "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Acme reported "
                + "\"}]}}],\"modelVersion\":\"gemini-2.0-flash-001\"}\r\n\r\n"
                + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":"
                + "\"$4.1 billion [1].\"}]},"
                + "\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":58,\"candidatesTokenCount\":9},"
                + "\"modelVersion\":\"gemini-2.0-flash-001\"}\r\n\r\n";
        String url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent";
        ChatDetail sse = (ChatDetail) classified(postWithTextReply(url + "?alt=sse", REQUEST, 200, events)).detail();
        assertThat(sse.output()).isEqualTo("Acme reported $4.1 billion [1].");
        assertThat(sse.usage()).isEqualTo(new TokenUsage(58, 9));
        assertThat(sse.streamed()).isTrue();

        ChatDetail array = (ChatDetail) classified(post(url, REQUEST, 200, "[{'candidates':[{'content':{'parts':"
                + "[{'text':'Acme reported '}]}}]},{'candidates':[{'content':{'parts':[{'text':'$4.1 billion [1].'}]}}]"
                + ","
                + "'usageMetadata':{'promptTokenCount':58,'candidatesTokenCount':9}}]")).detail();
        assertThat(array.output()).isEqualTo(sse.output());
        assertThat(array.model()).isEqualTo("gemini-2.0-flash");
    }

    @Test
    void shouldReadARetrievalFunctionsResultAsThePassagesOfAnAgenticTurn() {
        ChatDetail d = (ChatDetail) classified(post("https://generativelanguage.googleapis.com/v1beta/models/"
                + "gemini-2.0-flash:generateContent", "{'contents':[{'role':'user','parts':[{'text':'What was Acme "
                + "cash flow in 2023?'}]},{'role':'model','parts':[{'functionCall':{'name':'search_kb','args':{'query':"
                + "'Acme cash flow 2023'}}}]},{'role':'user','parts':[{'functionResponse':{'name':'search_kb',"
                + "'response':{'result':'Operating cash flow was $4.1 billion in 2023.\\n\\nRevenue grew 12% in "
                + "2022.'}}}]}]}", 200, "{'candidates':[{'content':{'role':'model','parts':[{'text':'Acme reported "
                + "$4.1 billion.'}]}}]}")).detail();

        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.contextPassages()).containsExactly("Operating cash flow was $4.1 billion in 2023.",
                "Revenue grew 12% in 2022.");
    }
}
