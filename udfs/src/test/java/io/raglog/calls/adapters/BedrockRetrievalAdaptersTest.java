package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.drift.IndexEmbeddings;
import io.raglog.knowledge.IndexedPassages;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import org.junit.jupiter.api.Test;

/** The stages before generation on Amazon Bedrock: embedding models invoked, rerank models, knowledge bases. */
class BedrockRetrievalAdaptersTest {

    private static final String RUNTIME = "https://bedrock-runtime.us-east-1.amazonaws.com/model/";
    private static final String AGENT = "https://bedrock-agent-runtime.us-east-1.amazonaws.com";

    @Test
    void shouldReadATitanQueryEmbeddingWithItsVectorInEitherField() {
        ClassifiedCall call = classified(post(RUNTIME + "amazon.titan-embed-text-v2%3A0/invoke",
                "{'inputText':'Acme cash flow 2023','dimensions':4}", 200,
                "{'embedding':[0.5,0.5,0.5,0.5],'inputTextTokenCount':5}"));
        EmbedDetail byType = (EmbedDetail) classified(post(RUNTIME + "amazon.titan-embed-text-v2%3A0/invoke",
                "{'inputText':'Acme cash flow 2023','embeddingTypes':['float']}", 200,
                "{'embeddingsByType':{'float':[0.5,0.5,0.5,0.5]},'inputTextTokenCount':5}")).detail();

        assertThat(call.stage()).isEqualTo(Stage.EMBED);
        EmbedDetail d = (EmbedDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("bedrock.embed");
        assertThat(d.model()).isEqualTo("amazon.titan-embed-text-v2:0");
        assertThat(d.texts()).containsExactly("Acme cash flow 2023");
        assertThat(d.vectors().get(0)).containsExactly(0.5f, 0.5f, 0.5f, 0.5f);
        assertThat(d.usage()).isEqualTo(new TokenUsage(5, null));
        assertThat(byType.vectors().get(0)).containsExactly(d.vectors().get(0));
    }

    @Test
    void shouldLeaveTitanTextGenerationToOtherReaders() {
        var call = io.raglog.calls.Calls.post(RUNTIME + "amazon.titan-text-express-v1/invoke",
                "{'inputText':'Summarise: Acme','textGenerationConfig':{'maxTokenCount':100}}", 200,
                "{'results':[{'outputText':'Acme.'}]}");

        assertThat(new BedrockEmbedAdapter().accepts(call)).isFalse();
    }

    @Test
    void shouldReadIndexBuildingAsNotARunAndLearnItsPassagesModelAndDimension() {
        String passage = "Net cash provided by operating activities was $4.2 billion in fiscal 2023. ".repeat(45);
        ClassifiedCall titan = classified(post(RUNTIME + "amazon.titan-embed-text-v2%3A0/invoke",
                "{'inputText':'" + passage + "','dimensions':4}", 200, "{'embedding':[0.5,0.5,0.5,0.5]}"));
        ClassifiedCall cohere = classified(post(RUNTIME + "cohere.embed-english-v3/invoke",
                "{'texts':['Cash flow was $4.2 billion.','Revenue grew 12%.'],'input_type':'search_document'}", 200,
                "{'embeddings':[[0.1,0.2,0.3],[0.3,0.2,0.1]],'response_type':'embeddings_floats'}"));

        assertThat(titan.detail()).isInstanceOf(NotARunCall.class);
        assertThat(((NotARunCall) titan.detail()).reason()).startsWith("index building: one document-length text");
        assertThat(IndexedPassages.read(titan).texts()).containsExactly(passage);
        assertThat(IndexEmbeddings.read(titan).model()).isEqualTo("amazon.titan-embed-text-v2:0");
        assertThat(IndexEmbeddings.read(titan).dimensions()).isEqualTo(4);
        assertThat(((NotARunCall) cohere.detail()).reason()).startsWith("index building: input type");
        assertThat(IndexedPassages.read(cohere).texts()).hasSize(2);
        assertThat(IndexEmbeddings.read(cohere).model()).isEqualTo("cohere.embed-english-v3");
        assertThat(IndexEmbeddings.read(cohere).dimensions()).isEqualTo(3);
    }

    @Test
    void shouldReadACohereQueryEmbeddingOnBedrock() {
        EmbedDetail d = (EmbedDetail) classified(post(RUNTIME + "cohere.embed-multilingual-v3/invoke",
                "{'texts':['Acme cash flow 2023'],'input_type':'search_query'}", 200,
                "{'embeddings':{'float':[[0.1,0.2,0.3]]},'response_type':'embeddings_by_type'}")).detail();

        assertThat(d.model()).isEqualTo("cohere.embed-multilingual-v3");
        assertThat(d.vectors().get(0)).containsExactly(0.1f, 0.2f, 0.3f);
    }

    @Test
    void shouldReadTheAgentRuntimesRerankWithTextAndJsonSources() {
        RerankDetail d = (RerankDetail) classified(post(AGENT + "/rerank", "{'queries':[{'type':'TEXT','textQuery':"
                + "{'text':'Acme cash flow 2023'}}],'sources':[{'type':'INLINE','inlineDocumentSource':{'type':'TEXT',"
                + "'textDocument':{'text':'Revenue grew 12%.'}}},{'type':'INLINE','inlineDocumentSource':{'type':"
                + "'JSON','jsonDocument':{'page_content':'Cash flow was $4.2 billion.','source':'10-K'}}}],"
                + "'rerankingConfiguration':{'type':'BEDROCK_RERANKING_MODEL','bedrockRerankingConfiguration':"
                + "{'numberOfResults':1,'modelConfiguration':{'modelArn':"
                + "'arn:aws:bedrock:us-west-2::foundation-model/cohere.rerank-v3-5:0'}}}}", 200,
                "{'results':[{'index':1,'relevanceScore':0.93}]}")).detail();

        assertThat(d.adapter()).isEqualTo("bedrock.rerank");
        assertThat(d.model()).isEqualTo("cohere.rerank-v3-5:0");
        assertThat(d.query()).isEqualTo("Acme cash flow 2023");
        assertThat(d.documents()).containsExactly("Revenue grew 12%.", "Cash flow was $4.2 billion.");
        assertThat(d.results()).containsExactly(new RerankDetail.RerankResult(1, 0.93));
        assertThat(d.topN()).isEqualTo(1);
    }

    @Test
    void shouldReadARerankModelInvokedWithCoheresBody() {
        RerankDetail d = (RerankDetail) classified(post(RUNTIME + "cohere.rerank-v3-5%3A0/invoke",
                "{'query':'Acme cash flow 2023','documents':['Revenue grew 12%.','Cash flow was $4.2 billion.'],"
                        + "'top_n':1,'api_version':2}", 200,
                "{'id':'r1','results':[{'index':1,'relevance_score':0.93}]}")).detail();

        assertThat(d.adapter()).isEqualTo("bedrock.rerank");
        assertThat(d.model()).isEqualTo("cohere.rerank-v3-5:0");
        assertThat(d.results()).containsExactly(new RerankDetail.RerankResult(1, 0.93));
    }

    @Test
    void shouldReadAStreamedRetrieveAndGenerateAsAGeneratorAnsweringFromTheCitedPassages() {
        String events = "event: output\ndata: {\"text\":\"Acme reported \"}\n\n"
                + "event: citation\ndata: {\"citation\":{\"retrievedReferences\":[{\"content\":{\"text\":"
                + "\"Cash flow was $4.2 billion in 2023.\"}}]}}\n\n"
                + "event: output\ndata: {\"text\":\"$4.2 billion.\"}\n\n"
                + "event: citation\ndata: {\"retrievedReferences\":[{\"content\":{\"text\":"
                + "\"Cash flow was $4.2 billion in 2023.\"}},{\"content\":{\"text\":\"Revenue grew 12%.\"}}]}\n\n";
        ChatDetail d = (ChatDetail) classified(postWithTextReply(AGENT + "/retrieveAndGenerateStream",
                "{'input':{'text':'What was Acme cash flow in 2023?'},'retrieveAndGenerateConfiguration':{'type':"
                        + "'KNOWLEDGE_BASE','knowledgeBaseConfiguration':{'knowledgeBaseId':'KB123','modelArn':"
                        + "'arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-pro-v1:0'}}}", 200, events))
                .detail();

        assertThat(d.adapter()).isEqualTo("bedrock.retrieve-and-generate");
        assertThat(d.model()).isEqualTo("amazon.nova-pro-v1:0");
        assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
        assertThat(d.contextPassages()).containsExactly("Cash flow was $4.2 billion in 2023.", "Revenue grew 12%.");
        assertThat(d.output()).isEqualTo("Acme reported $4.2 billion.");
        assertThat(d.streamed()).isTrue();
    }

    @Test
    void shouldReadAKnowledgeBaseRetrievalAndAThrottledOneWithoutPassages() {
        String request = "{'retrievalQuery':{'text':'Acme cash flow 2023'},'retrievalConfiguration':"
                + "{'vectorSearchConfiguration':{'numberOfResults':2}}}";
        ClassifiedCall call = classified(post(AGENT + "/knowledgebases/KB123/retrieve", request, 200,
                "{'retrievalResults':[{'content':{'text':'Cash flow was $4.2 billion.'},'score':0.7,'metadata':"
                        + "{'x-amz-bedrock-kb-chunk-id':'c-1'}},{'content':{'text':'Revenue grew 12%.'},"
                        + "'score':0.4}]}"));
        RetrieveDetail throttled = (RetrieveDetail) classified(post(AGENT + "/knowledgebases/KB123/retrieve",
                request, 429, "{'message':'Rate exceeded'}")).detail();

        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        RetrieveDetail d = (RetrieveDetail) call.detail();
        assertThat(d.collection()).isEqualTo("KB123");
        assertThat(d.queryText()).isEqualTo("Acme cash flow 2023");
        assertThat(d.queryVector()).isNull();
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).extracting(p -> p.id()).containsExactly("c-1",
                Passages.contentId("Revenue grew 12%."));
        assertThat(d.passages()).extracting(p -> p.rank()).containsExactly(1, 2);
        assertThat(throttled.passages()).isEmpty();
        assertThat(throttled.queryText()).isEqualTo("Acme cash flow 2023");
    }
}
