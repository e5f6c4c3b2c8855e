package io.raglog.calls;

import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Stage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import static io.raglog.calls.Calls.call;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.json;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.unreadableReason;
import static org.assertj.core.api.Assertions.assertThat;


/** Shapes the recorded fixtures do not show: variants, routing between look-alike endpoints, unreadable bodies. */
class AdapterEdgeCasesTest {

    @Nested
    class Routing {

        @Test
        void shouldSendOllamaLegacyEmbeddingsToOllamaAndV1EmbeddingsToOpenAi() {
            assertThat(classified(post("http://ollama:11434/api/embeddings", "{'model':'all-minilm','prompt':'q'}", 200,
                    "{'embedding':[0.1,0.2]}")).detail().adapter()).isEqualTo("ollama.embed");
            assertThat(classified(post("http://ollama:11434/v1/embeddings", "{'model':'all-minilm','input':'q'}", 200,
                    "{'data':[{'index':0,'embedding':[0.1,0.2]}]}")).detail().adapter()).isEqualTo("openai.embeddings");
        }

        @Test
        void shouldTellTeiEmbedFromCohereEmbedByBody() {
            assertThat(classified(post("http://proxy/embed", "{'inputs':'q'}", 200, "[[0.1,0.2]]")).detail().adapter())
                    .isEqualTo("tei.embed");
            assertThat(classified(post("http://proxy/v1/embed", "{'texts':['q'],'input_type':'search_query'}", 200,
                    "{'embeddings':[[0.1,0.2]]}")).detail().adapter()).isEqualTo("cohere.embed");
        }

        @Test
        void shouldTellRerankersApartBehindAProxyWithoutTheirHosts() {
            String docs = "'query':'q','documents':['a','b']";
            assertThat(classified(post("http://proxy/voyage/v1/rerank", "{" + docs + ",'model':'rerank-2','top_k':1}", 200,
                    "{'data':[{'index':1,'relevance_score':0.9}]}")).detail().adapter()).isEqualTo("voyage.rerank");
            assertThat(classified(post("http://proxy/jina/v1/rerank", "{" + docs + ",'model':'jina-reranker-v2-base-multilingual'}",
                    200, "{'results':[{'index':1,'relevance_score':0.9}]}")).detail().adapter()).isEqualTo("jina.rerank");
            assertThat(classified(post("http://litellm:4000/rerank", "{" + docs + ",'model':'cohere/rerank-v3.5','top_n':1}",
                    200, "{'results':[{'index':1,'relevance_score':0.9}]}")).detail().adapter()).isEqualTo("cohere.rerank");
        }

        @Test
        void shouldLeaveAnUnknownEndpointUnclassified() {
            Classification c = BuiltInAdapters.classifier().classify(
                    post("https://api.example.com/v3/magic", "{'x':1}", 200, "{'y':2}"));

            assertThat(c).isInstanceOf(Classification.Unclassified.class);
        }

        @Test
        void shouldCallHealthProbesAndOllamaModelManagementNotARunCall() {
            CallEvent health = Calls.call("GET", "http://tei-embed:8080/health", null, 200, null);
            CallEvent tags = Calls.call("GET", "http://ollama:11434/api/tags", null, 200, Calls.json("{'models':[]}"));

            assertThat(classified(health).detail()).isInstanceOf(NotARunCall.class);
            assertThat(classified(tags).detail()).isInstanceOf(NotARunCall.class);
        }
    }

    @Nested
    class Variants {

        @Test
        void shouldReadTheSameCallWhenAProxyStoredBothBodiesAsJsonText() throws IOException {
            CallEvent recorded = fixture("openai/chat-completions-generate.json");
            CallEvent asText = Calls.call("POST", recorded.request().url(),
                    TextNode.valueOf(recorded.request().body().toString()), 200,
                    TextNode.valueOf(recorded.response().body().toString()));

            assertThat(classified(asText).detail()).isEqualTo(classified(recorded).detail());
        }

        @Test
        void shouldTakeAToolCallsArgumentsAsTheOutputOfAStructuredRewriter() {
            ChatDetail d = (ChatDetail) classified(post("https://api.openai.com/v1/chat/completions",
                    "{'model':'gpt-4o-mini','messages':[{'role':'system','content':'Generate 3 search queries for the "
                            + "question.'},{'role':'user','content':'What was Acme cash flow in 2023?'}],"
                            + "'tools':[{'type':'function','function':{'name':'queries'}}]}", 200,
                    "{'model':'gpt-4o-mini','choices':[{'index':0,'message':{'role':'assistant','content':null,"
                            + "'tool_calls':[{'id':'call_1','type':'function','function':{'name':'queries',"
                            + "'arguments':'{\\'queries\\':[\\'Acme cash flow 2023\\']}'}}]}}]}")).detail();

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.output()).isEqualTo("{\"queries\":[\"Acme cash flow 2023\"]}");
        }

        @Test
        void shouldReadAnthropicToolResultsAndDocumentBlocksAsContext() {
            ChatDetail d = (ChatDetail) classified(post("https://api.anthropic.com/v1/messages",
                    "{'model':'claude-3-5-haiku-latest','max_tokens':300,'messages':[{'role':'user','content':["
                            + "{'type':'document','source':{'type':'text','media_type':'text/plain','data':'Cash flow was "
                            + "4.2 billion.'},'title':'10-K'},{'type':'text','text':'What was the cash flow?'}]}]}",
                    200, "{'model':'claude-3-5-haiku-20241022','content':[{'type':'text','text':'4.2 billion.'}],"
                            + "'usage':{'input_tokens':40,'output_tokens':5}}")).detail();

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.contextPassages()).containsExactly("Cash flow was 4.2 billion.");
            assertThat(d.question()).isEqualTo("What was the cash flow?");
        }

        @Test
        void shouldReadAnthropicSearchResultsGivenOrReturnedByAToolAsContext() {
            String result = "{'type':'search_result','source':'s3://acme/10k.pdf','title':'10-K','content':[{'type':"
                    + "'text','text':'Cash flow was 4.2 billion.'}],'citations':{'enabled':true}}";
            ChatDetail given = (ChatDetail) classified(post("https://api.anthropic.com/v1/messages",
                    "{'model':'claude-sonnet-4-5','max_tokens':300,'messages':[{'role':'user','content':[" + result
                            + ",{'type':'text','text':'What was the cash flow?'}]}]}", 200,
                    "{'content':[{'type':'text','text':'4.2 billion.'}]}")).detail();
            ChatDetail returned = (ChatDetail) classified(post("https://api.anthropic.com/v1/messages",
                    "{'model':'claude-sonnet-4-5','max_tokens':300,'messages':[{'role':'user','content':'What was the "
                            + "cash flow?'},{'role':'assistant','content':[{'type':'tool_use','id':'t1','name':"
                            + "'search_kb','input':{'query':'cash flow'}}]},{'role':'user','content':[{'type':"
                            + "'tool_result','tool_use_id':'t1','content':[" + result + "]}]}]}", 200,
                    "{'content':[{'type':'text','text':'4.2 billion.'}]}")).detail();

            for (ChatDetail d : java.util.List.of(given, returned)) {
                assertThat(d.contextPassages()).containsExactly("Cash flow was 4.2 billion.");
                assertThat(d.question()).isEqualTo("What was the cash flow?");
            }
        }

        @Test
        void shouldReadAnAnthropicReplyThatCitesItsDocumentsAsOneText() {
            ChatDetail d = (ChatDetail) classified(post("https://api.anthropic.com/v1/messages",
                    "{'model':'claude-3-5-haiku-latest','max_tokens':300,'messages':[{'role':'user','content':["
                            + "{'type':'document','source':{'type':'text','media_type':'text/plain','data':'Cash flow was "
                            + "4.2 billion.'},'title':'10-K','citations':{'enabled':true}},"
                            + "{'type':'text','text':'What was the cash flow?'}]}]}",
                    200, "{'model':'claude-3-5-haiku-20241022','content':[{'type':'text','text':'According to the "
                            + "10-K, '},{'type':'text','text':'cash flow was 4.2 billion','citations':[{'type':"
                            + "'char_location','cited_text':'Cash flow was 4.2 billion.','document_index':0}]},"
                            + "{'type':'text','text':'.'}],'usage':{'input_tokens':40,'output_tokens':12}}")).detail();

            assertThat(d.output()).isEqualTo("According to the 10-K, cash flow was 4.2 billion.");
        }

        @Test
        void shouldReadTheTurnsAClientsChatTemplateWroteIntoARawPrompt() {
            String prompt = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\\n\\nAnswer from the "
                    + "context. What is asked must be answered briefly.<|eot_id|><|start_header_id|>user"
                    + "<|end_header_id|>\\n\\nContext:\\n[1] Cash flow was $4.2 billion in 2023.\\n\\n[2] Revenue grew 12%"
                    + " in 2022.\\n\\nQuestion: "
                    + "What was Acme cash flow?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\\n\\n";
            ChatDetail vllm = (ChatDetail) classified(post("http://vllm:8000/v1/completions", "{'model':"
                    + "'meta-llama/Llama-3.1-8B-Instruct','prompt':'" + prompt + "'}", 200,
                    "{'choices':[{'text':'$4.2 billion.'}]}")).detail();
            ChatDetail ollama = (ChatDetail) classified(post("http://ollama:11434/api/generate", "{'model':"
                    + "'llama3.1:8b','raw':true,'stream':false,'prompt':'" + prompt + "'}", 200,
                    "{'model':'llama3.1:8b','response':'$4.2 billion.','done':true}")).detail();

            for (ChatDetail d : List.of(vllm, ollama)) {
                assertThat(d.messages()).extracting(ChatMessage::role).containsExactly("system", "user");
                assertThat(d.question()).isEqualTo("What was Acme cash flow?");
                assertThat(d.contextPassages()).containsExactly("Cash flow was $4.2 billion in 2023.",
                        "Revenue grew 12% in 2022.");
            }
        }

        @Test
        void shouldCallAnOllamaGenerateWithoutPromptAModelLoad() {
            assertThat(classified(post("http://ollama:11434/api/generate", "{'model':'llama3.1:8b'}", 200,
                    "{'model':'llama3.1:8b','response':'','done':true}")).detail()).isInstanceOf(NotARunCall.class);
        }

        @Test
        void shouldTakeTheDenseBranchOfAQdrantHybridQuery() {
            RetrieveDetail d = (RetrieveDetail) classified(post("http://qdrant:6333/collections/docs/points/query",
                    "{'prefetch':[{'query':{'indices':[1,7],'values':[0.5,0.2]},'using':'sparse','limit':20},"
                            + "{'query':[0.1,0.2,0.3],'using':'dense','limit':20}],'query':{'fusion':'rrf'},'limit':5,"
                            + "'with_payload':true}",
                    200, "{'result':{'points':[{'id':3,'score':0.5,'payload':{'text':'t'}}]},'status':'ok'}")).detail();

            assertThat(d.queryVector()).containsExactly(0.1f, 0.2f, 0.3f);
            assertThat(d.topK()).isEqualTo(5);
            assertThat(d.passages().get(0).id()).isEqualTo("3");
        }

        @Test
        void shouldReadQueryTextFromAnElasticsearchQueryVectorBuilder() {
            RetrieveDetail d = (RetrieveDetail) classified(post("http://es:9200/docs/_search",
                    "{'knn':{'field':'embedding','k':3,'num_candidates':30,'query_vector_builder':{'text_embedding':"
                            + "{'model_id':'.multilingual-e5-small','model_text':'acme cash flow'}}}}",
                    200, "{'hits':{'hits':[{'_id':'a','_score':0.9,'_source':{'content':'Cash flow text'}}]}}")).detail();

            assertThat(d.queryText()).isEqualTo("acme cash flow");
            assertThat(d.queryVector()).isNull();
            assertThat(d.topK()).isEqualTo(3);
            assertThat(d.passages().get(0).text()).isEqualTo("Cash flow text");
        }

        @Test
        void shouldCallAnElasticsearchListingNotARunCall() {
            assertThat(classified(post("http://es:9200/docs/_search", "{'query':{'match_all':{}},'size':100}", 200,
                    "{'hits':{'hits':[]}}")).detail()).isInstanceOf(NotARunCall.class);
        }

        @Test
        void shouldReadWeaviateNearTextWithVariables() {
            RetrieveDetail d = (RetrieveDetail) classified(post("http://weaviate:8080/v1/graphql",
                    "{'query':'query($c: [String]) { Get { Article(nearText: {concepts: $c}, limit: 2) { body "
                            + "_additional { id certainty } } } }','variables':{'c':['acme','cash flow']}}",
                    200, "{'data':{'Get':{'Article':[{'body':'Acme cash flow rose in 2023 thanks to higher earnings.',"
                            + "'_additional':{'id':'u1','certainty':0.91}}]}}}")).detail();

            assertThat(d.queryText()).isEqualTo("acme cash flow");
            assertThat(d.topK()).isEqualTo(2);
            assertThat(d.passages().get(0).score()).isEqualTo(0.91);
        }

        @Test
        void shouldReadPineconeIntegratedInferenceSearch() {
            RetrieveDetail d = (RetrieveDetail) classified(post(
                    "https://docs-ab12cd3.svc.aped-4627-b74a.pinecone.io/records/namespaces/acme/search",
                    "{'query':{'inputs':{'text':'acme cash flow'},'top_k':2},'fields':['chunk_text']}",
                    200, "{'result':{'hits':[{'_id':'r1','_score':0.8,'fields':{'chunk_text':'Cash flow text'}}]},"
                            + "'usage':{'read_units':6}}")).detail();

            assertThat(d.queryText()).isEqualTo("acme cash flow");
            assertThat(d.collection()).isEqualTo("docs");
            assertThat(d.passages().get(0).text()).isEqualTo("Cash flow text");
        }

        @Test
        void shouldLeavePineconesControlPlaneCollectionsToPineconeNotQdrant() {
            ClassifiedCall listing = classified(call("GET", "https://api.pinecone.io/collections", null, 200,
                    json("{'collections':[{'name':'acme-2023','status':'Ready'}]}")));

            assertThat(listing.detail()).isInstanceOfSatisfying(NotARunCall.class,
                    n -> assertThat(n.adapter()).isEqualTo("pinecone"));
        }

        @Test
        void shouldReadAResponsesToolOutputAsContext() {
            ChatDetail d = (ChatDetail) classified(post("https://api.openai.com/v1/responses",
                    "{'model':'gpt-4.1','input':[{'role':'user','content':'What was Acme cash flow in 2023?'},"
                            + "{'type':'function_call','call_id':'c1','name':'search','arguments':'{}'},"
                            + "{'type':'function_call_output','call_id':'c1','output':'Cash flow was 4.2 billion.'}]}",
                    200, "{'model':'gpt-4.1','output':[{'type':'message','content':[{'type':'output_text',"
                            + "'text':'4.2 billion.'}]}],'usage':{'input_tokens':30,'output_tokens':4}}")).detail();

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.contextText()).isEqualTo("Cash flow was 4.2 billion.");
        }

        @Test
        void shouldKeepOnlyWhatArrivedWhenAStreamBreaksOff() {
            ChatDetail d = (ChatDetail) classified(Calls.postWithTextReply("https://api.openai.com/v1/chat/completions",
                    "{'model':'gpt-4o','stream':true,'messages':[{'role':'user','content':'hi'}]}", 200,
                    "data: {\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n"
                            + "data: {\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"}}]}"))
                    .detail();

            assertThat(d.output()).isEqualTo("Hello");
            assertThat(d.streamed()).isTrue();
        }
    }

    @Nested
    class FailedCalls {

        @Test
        void shouldKeepTheRequestSideOfARateLimitedRerank() {
            ClassifiedCall c = classified(post("https://api.cohere.com/v2/rerank",
                    "{'model':'rerank-v3.5','query':'q','documents':['a','b'],'top_n':1}", 429,
                    "{'message':'You are using a Trial key, which is limited to 10 API calls / minute.'}"));
            RerankDetail d = (RerankDetail) c.detail();

            assertThat(c.stage()).isEqualTo(Stage.RERANK);
            assertThat(d.documents()).containsExactly("a", "b");
            assertThat(d.results()).isEmpty();
        }

        @Test
        void shouldKeepTheTextsOfAFailedEmbeddingsCall() {
            EmbedDetail d = (EmbedDetail) classified(Calls.postWithTextReply("http://tei:8080/embed",
                    "{'inputs':'q'}", 502, "<html>Bad Gateway</html>")).detail();

            assertThat(d.texts()).containsExactly("q");
            assertThat(d.vectors()).isEmpty();
        }
    }

    @Nested
    class UnreadableBodies {

        @Test
        void shouldNameANonJsonChatRequest() {
            assertThat(unreadableReason(Calls.call("POST", "https://api.openai.com/v1/chat/completions",
                    TextNode.valueOf("model=gpt-4o&prompt=hi"), 200, Calls.json("{}"))))
                    .isEqualTo("openai.chat: request body is text \"model=gpt-4o&prompt=hi\", expected a JSON object");
        }

        @Test
        void shouldNameMessagesOfTheWrongType() {
            assertThat(unreadableReason(post("https://api.openai.com/v1/chat/completions",
                    "{'model':'gpt-4o','messages':'hello'}", 200, "{}")))
                    .isEqualTo("openai.chat: 'messages' is text \"hello\", expected an array");
        }

        @Test
        void shouldNameAnHtmlPageWhereEmbeddingsWereExpected() {
            assertThat(unreadableReason(Calls.postWithTextReply("https://api.openai.com/v1/embeddings",
                    "{'model':'text-embedding-3-small','input':'q'}", 200, "<html>captive portal</html>")))
                    .isEqualTo("openai.embeddings: response body is text \"<html>captive portal</html>\", expected JSON");
        }

        @Test
        void shouldNameARerankResultPointingOutsideTheDocuments() {
            assertThat(unreadableReason(post("https://api.cohere.com/v2/rerank",
                    "{'query':'q','documents':['a','b']}", 200, "{'results':[{'index':5,'relevance_score':0.9}]}")))
                    .isEqualTo("cohere.rerank: results[0].index 5 is outside the 2 documents sent");
        }

        @Test
        void shouldNameAQdrantVectorOfStrings() {
            assertThat(unreadableReason(post("http://qdrant:6333/collections/c/points/search",
                    "{'vector':['a','b'],'limit':3}", 200, "{'result':[]}")))
                    .isEqualTo("qdrant: vector[0] is text \"a\", expected a number");
        }

        @Test
        void shouldNameAChromaQueryWithNothingToSearchWith() {
            assertThat(unreadableReason(post("http://chroma:8000/api/v1/collections/abc/query",
                    "{'n_results':3}", 200, "{'ids':[[]]}")))
                    .isEqualTo("chroma: query has neither 'query_embeddings' nor 'query_texts'");
        }
    }

    @Test
    void shouldSurviveJavaSerializationAsFlinkShipsIt() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(BuiltInAdapters.classifier());
        }
        CallClassifier copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (CallClassifier) in.readObject();
        }

        assertThat(copy.classify(fixture("qdrant/points-search.json")))
                .isInstanceOf(Classification.Classified.class);
    }

    private static CallEvent fixture(String name) throws IOException {
        try {
            Path path = Paths.get(AdapterEdgeCasesTest.class.getResource("/wire/" + name).toURI());
            return Json.read(Files.readAllBytes(path), CallEvent.class);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
