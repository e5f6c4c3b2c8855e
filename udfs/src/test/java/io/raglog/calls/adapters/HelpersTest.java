package io.raglog.calls.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.Calls;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class HelpersTest {

    @Nested
    class EndpointMatching {

        @Test
        void shouldMatchPathBehindAProxyPrefixWithQueryAndTrailingSlash() {
            Endpoint e = Endpoint.of(Calls.post("http://raglog-proxy:8080/openai/v1/chat/completions/?x=1", "{}", 200, "{}"));

            assertThat(e.host()).isEqualTo("raglog-proxy");
            assertThat(e.path()).isEqualTo("/openai/v1/chat/completions");
            assertThat(e.query()).isEqualTo("x=1");
            assertThat(e.pathEndsWith("/chat/completions")).isTrue();
        }

        @Test
        void shouldTakeEachCallsOwnMethodAndUrlApartWhenCallsAlternate() {
            CallEvent chat = Calls.post("http://llm:8000/v1/chat/completions", "{}", 200, "{}");
            CallEvent search = Calls.call(" get ", "http://qdrant:6333/collections/c", null, 200, null);

            Endpoint chatEndpoint = new Endpoint("POST", "llm", "8000", "/v1/chat/completions", "");
            for (int i = 0; i < 2; i++) {
                assertThat(Endpoint.of(chat)).isEqualTo(chatEndpoint);
                assertThat(Endpoint.of(chat)).isEqualTo(chatEndpoint);
                assertThat(Endpoint.of(search)).isEqualTo(new Endpoint("GET", "qdrant", "6333", "/collections/c", ""));
            }
            assertThat(Endpoint.of(Calls.call("POST", "http://qdrant:6333/collections/c", null, 200, null)).method())
                    .isEqualTo("POST");
        }

        @Test
        void shouldReadAQueryParameterDecodedAndNullWhenTheQueryNamesNone() {
            Endpoint e = Endpoint.of(Calls.call("GET", "https://x.search.windows.net/indexes/i/docs?api-version=1"
                    + "&search=Acme%20cash+flow&%24top=2&flag&limit=", null, 200, null));

            assertThat(e.queryParameter("search")).isEqualTo("Acme cash flow");
            assertThat(e.queryParameter("$top")).isEqualTo("2");
            assertThat(e.queryParameter("limit")).isEmpty();
            assertThat(e.queryParameter("flag")).as("a name without a value is no parameter").isNull();
            assertThat(Endpoint.of(Calls.post("https://x/rpc/match_documents", "{}", 200, "[]"))
                    .queryParameter("limit")).isNull();
        }

        @Test
        void shouldReadAzureDeploymentAndIpv6HostAndBarePaths() {
            Endpoint azure = Endpoint.of(Calls.post(
                    "https://acme.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21",
                    "{}", 200, "{}"));
            Endpoint ipv6 = Endpoint.of(Calls.post("http://[::1]:6333/collections/c/points/search", "{}", 200, "{}"));
            Endpoint bare = Endpoint.of(Calls.post("/v1/embeddings", "{}", 200, "{}"));

            assertThat(azure.segmentAfter("deployments")).isEqualTo("gpt4o-prod");
            assertThat(ipv6.host()).isEqualTo("[::1]");
            assertThat(ipv6.segmentAfter("collections")).isEqualTo("c");
            assertThat(bare.host()).isEmpty();
            assertThat(bare.pathEndsWith("/embeddings")).isTrue();
        }

        @Test
        void shouldKeepThePortApartFromTheHostAndUserInfoOutOfBoth() {
            Endpoint e = Endpoint.of(Calls.post("https://svc:s3cr3t@Search.Internal:8443/v1/search", "{}", 200, "{}"));
            Endpoint ipv6 = Endpoint.of(Calls.post("http://[::1]:6333/collections", "{}", 200, "{}"));

            assertThat(e.host()).isEqualTo("search.internal");
            assertThat(e.port()).isEqualTo("8443");
            assertThat(e.authority()).isEqualTo("search.internal:8443");
            assertThat(ipv6.authority()).isEqualTo("[::1]:6333");
            assertThat(Endpoint.of(Calls.post("http://qdrant/collections", "{}", 200, "{}")).authority())
                    .isEqualTo("qdrant");
        }

        // The cases where the adapters' reading and the field mappings' reading of a URL used to differ.

        @Test
        void shouldReadAMethodWithWhiteSpaceAsThatMethod() {
            Endpoint e = Endpoint.of(Calls.call(" post\n", "http://api.openai.com/v1/embeddings",
                    Json.MAPPER.createObjectNode(), 200, Json.MAPPER.createObjectNode()));

            assertThat(e.method()).isEqualTo("POST");
            assertThat(e.isPost()).isTrue();
        }

        @Test
        void shouldDropEmptySegmentsSoAProxyPrefixWithASlashStillMatches() {
            Endpoint e = Endpoint.of(Calls.post("http://proxy:8080/openai//v1//embeddings//", "{}", 200, "{}"));

            assertThat(e.path()).isEqualTo("/openai/v1/embeddings");
            assertThat(e.pathEndsWith("/v1/embeddings")).isTrue();
        }

        @Test
        void shouldStartABarePathWithASlash() {
            Endpoint e = Endpoint.of(Calls.post("v1/embeddings?x=1", "{}", 200, "{}"));

            assertThat(e.path()).isEqualTo("/v1/embeddings");
            assertThat(e.query()).isEqualTo("x=1");
            assertThat(e.pathEndsWith("/v1/embeddings")).isTrue();
        }

        @Test
        void shouldReadTheModelABedrockPathNamesEscapedOrNotAndAnInferenceProfileByItsArn() {
            String runtime = "https://bedrock-runtime.us-east-1.amazonaws.com/model/";
            String arn = "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-haiku"
                    + "-20241022-v1:0";

            assertThat(bedrockModel(runtime + "anthropic.claude-3-5-haiku-20241022-v1%3A0/converse"))
                    .isEqualTo("anthropic.claude-3-5-haiku-20241022-v1:0");
            assertThat(bedrockModel(runtime + "cohere.embed-english-v3/invoke")).isEqualTo("cohere.embed-english-v3");
            assertThat(bedrockModel(runtime + arn.replace(":", "%3A").replace("/", "%2F") + "/converse-stream"))
                    .isEqualTo("us.anthropic.claude-3-5-haiku-20241022-v1:0");
            assertThat(bedrockModel("http://proxy:8080/bedrock/model/" + arn + "/invoke"))
                    .isEqualTo("us.anthropic.claude-3-5-haiku-20241022-v1:0");
            assertThat(bedrockModel(runtime + "a%ZZb/invoke")).isEqualTo("a%ZZb");
            assertThat(bedrockModel("https://api.openai.com/v1/models/gpt-4o")).isNull();
            assertThat(bedrockModel(runtime + "converse")).isNull();
        }

        @Test
        void shouldReadTheIdAGooglePathNamesBeforeItsMethodAndTellARawPredict() {
            Endpoint claude = Endpoint.of(Calls.post("https://us-east5-aiplatform.googleapis.com/v1/projects/p/"
                    + "locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict", "{}",
                    200, "{}"));
            Endpoint search = Endpoint.of(Calls.post("https://1.us-central1-2.vdb.vertexai.goog/v1/projects/2/"
                    + "locations/us-central1/indexEndpoints/4514125379258482688:findNeighbors", "{}", 200, "{}"));

            assertThat(claude.isRawPredict()).isTrue();
            assertThat(claude.modelBeforeMethod()).isEqualTo("claude-sonnet-4@20250514");
            assertThat(search.isRawPredict()).isFalse();
            assertThat(search.idBeforeMethod("indexEndpoints")).isEqualTo("4514125379258482688");
            assertThat(search.idBeforeMethod("models")).isNull();
            assertThat(search.modelBeforeMethod()).isNull();
        }

        private static String bedrockModel(String url) {
            return Endpoint.of(Calls.post(url, "{}", 200, "{}")).bedrockModel();
        }
    }

    @Nested
    class BodyReading {

        @Test
        void shouldParseABodyAProxyStoredAsAJsonString() {
            JsonNode body = Bodies.json(TextNode.valueOf("{\"model\": \"gpt-4o\", \"messages\": []}"));

            assertThat(body.isObject()).isTrue();
            assertThat(body.get("model").asText()).isEqualTo("gpt-4o");
        }

        @Test
        void shouldParseAJsonStringPastTheWhiteSpaceStripDrops() {
            // U+001C and U+000B are white space to String.strip, not to JSON; U+00A0 is neither
            assertThat(Bodies.json(TextNode.valueOf("\u001c\n [1, 2]\u000b")).isArray()).isTrue();
            assertThat(Bodies.json(TextNode.valueOf(" \t{\"a\": 1}\r\n")).isObject()).isTrue();
            assertThat(Bodies.json(TextNode.valueOf("\u00a0{\"a\": 1}")).isTextual()).isTrue();
            assertThat(Bodies.json(TextNode.valueOf(" \n ")).isTextual()).isTrue();
        }

        @Test
        void shouldLeaveNdjsonAndEventStreamsAsText() {
            assertThat(Bodies.json(TextNode.valueOf("{\"a\":1}\n{\"a\":2}\n")).isTextual()).isTrue();
            assertThat(Bodies.json(TextNode.valueOf("data: {\"a\":1}\n\n")).isTextual()).isTrue();
        }

        @Test
        void shouldTreatA200CarryingAnErrorObjectAsFailed() {
            assertThat(Bodies.succeeded(Calls.post("http://ollama:11434/api/chat", "{}", 200,
                    "{'error': 'model \\u0027llama9\\u0027 not found'}"))).isFalse();
            assertThat(Bodies.succeeded(Calls.post("http://x/v1/embeddings", "{}", 200, "{'data': []}"))).isTrue();
        }

        @Test
        void shouldReadAGoogleFieldByTheNameTheBodyGivesIt() {
            assertThat(Bodies.protoName(Calls.json("{'featureVector':[1]}"), "feature_vector"))
                    .isEqualTo("featureVector");
            assertThat(Bodies.protoName(Calls.json("{'feature_vector':[1]}"), "feature_vector"))
                    .isEqualTo("feature_vector");
            assertThat(Bodies.protoName(Calls.json("{}"), "deployed_index_id")).isEqualTo("deployed_index_id");
            assertThat(Bodies.protoName(Calls.json("{'deployedIndexId':'a'}"), "deployed_index_id"))
                    .isEqualTo("deployedIndexId");
        }

        @Test
        void shouldNameTheFieldAndItsTypeWhenATypeIsWrong() {
            assertThatThrownBy(() -> Bodies.integer(Calls.json("{'limit': 'ten'}"), "limit"))
                    .isInstanceOf(AdapterException.class).hasMessage("'limit' is text \"ten\", expected an integer");
        }
    }

    @Nested
    class EventStreams {

        @Test
        void shouldReassembleEventsWithCrLfCommentsAndMultiLineData() throws AdapterException {
            List<String> events = new ArrayList<>();
            Sse.forEachEvent(": keep-alive\r\nevent: message_start\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: [DONE]",
                    (event, text, start, end) -> events.add(event + " " + text.substring(start, end)));

            assertThat(events).containsExactly("message_start {\"a\":\n1}", "null [DONE]");
        }

        @Test
        void shouldDropTheDoneSentinelAndHandOnEventNames() throws AdapterException {
            List<String> chunks = new ArrayList<>();
            Sse.readChunks(TextNode.valueOf("event: ping\ndata: {}\n\ndata: {\"x\":1}\n\ndata: [DONE]\n\n"),
                    (chunk, event) -> chunks.add(event + " " + ChunkFields.tree(chunk)));

            assertThat(chunks).containsExactly("ping {}", "null {\"x\":1}");
        }

        @Test
        void shouldRefuseAnEventWhoseDataIsNotJson() {
            assertThatThrownBy(() -> Sse.readChunks(TextNode.valueOf("data: {\"ok\":1}\n\ndata: <html>oops\n\n"),
                    (chunk, event) -> chunk.skipChildren()))
                    .isInstanceOf(AdapterException.class).hasMessage("stream event 2 data is not JSON: <html>oops");
        }
    }

    @Nested
    class VectorDecoding {

        @Test
        void shouldDecodeLittleEndianFloat32Base64() throws AdapterException {
            // 1.0f is 00 00 80 3F little-endian, -2.5f is 00 00 20 C0.
            assertThat(Vectors.fromBase64("AACAPwAAIMA=", "embedding")).containsExactly(1.0f, -2.5f);
        }

        @Test
        void shouldRoundTripAndAcceptArrays() throws AdapterException {
            float[] v = {0.0123f, -0.5f, 3.25e-4f};

            assertThat(Vectors.decode(TextNode.valueOf(Vectors.toBase64(v)), "e")).containsExactly(v);
            assertThat(Vectors.decode(Calls.json("[0.0123, -0.5, 0.000325]"), "e")).containsExactly(v);
        }

        @Test
        void shouldRefuseBase64ThatIsNotWholeFloats() {
            assertThatThrownBy(() -> Vectors.fromBase64("AACAPwAA", "data[0].embedding"))
                    .isInstanceOf(AdapterException.class)
                    .hasMessage("data[0].embedding decodes to 6 bytes, not a whole number of float32");
        }
    }

    @Nested
    class PassageTexts {

        @Test
        void shouldFindTextUnderEachFrameworksKey() {
            assertThat(PassageText.find(Calls.json("{'page_content': 'lc text', 'metadata': {}}"))).isEqualTo("lc text");
            assertThat(PassageText.find(Calls.json("{'content': 'haystack text', 'meta': {}}"))).isEqualTo("haystack text");
            assertThat(PassageText.find(Calls.json("{'metadata': {'text': 'nested text'}}"))).isEqualTo("nested text");
        }

        @Test
        void shouldFindTheTextLangChainJsKeepsUnderItsReservedKeysBeforeTheUsersOwn() {
            assertThat(PassageText.find(Calls.json("{'_pageContentLC': 'upstash text', 'text': 'a title'}")))
                    .isEqualTo("upstash text");
            assertThat(PassageText.find(Calls.json("{'__lc_page_content': 'Operating cash flow was $4.2 billion in "
                    + "2023.', 'source': 'acme_10k_2023.pdf'}"))).isEqualTo("Operating cash flow was $4.2 billion in 2023.");
        }

        @Test
        void shouldReadLlamaIndexNodeContent() {
            JsonNode payload = Calls.json("{'_node_type': 'TextNode', '_node_content': "
                    + "'{\\'id_\\': \\'n1\\', \\'text\\': \\'node text\\', \\'metadata\\': {}}'}");

            assertThat(PassageText.find(payload)).isEqualTo("node text");
        }

        @Test
        void shouldFallBackToTheLongestStringAndSkipUrlsAndShortTags() {
            JsonNode payload = Calls.json("{'url': 'https://acme.example/reports/2023/10-k-annual-report.pdf', "
                    + "'tag': 'finance', 'summary': 'Operating cash flow rose to 4.2 billion dollars in 2023.'}");

            assertThat(PassageText.find(payload)).isEqualTo("Operating cash flow rose to 4.2 billion dollars in 2023.");
            assertThat(PassageText.find(Calls.json("{'source': 'a.pdf'}"))).isNull();
        }

        @Test
        void shouldDeriveAContentIdWhenTheStoreGivesNone() {
            assertThat(Passages.id(null, "abc")).isEqualTo("sha1:a9993e364706816aba3e25717850c26c9cd0d89d");
            assertThat(Passages.id(Calls.json("42"), "abc")).isEqualTo("42");
        }
    }

    @Nested
    class IndexBuildingRule {

        @Test
        void shouldCallMoreThanSixteenTextsIndexBuilding() {
            assertThat(IndexBuilding.reasonForTexts(Collections.nCopies(17, "short query")))
                    .startsWith("index building: 17 texts");
            assertThat(IndexBuilding.reasonForTexts(Collections.nCopies(16, "short query"))).isNull();
        }

        @Test
        void shouldCallSeveralPassageLengthTextsIndexBuilding() {
            String chunk = "x".repeat(900);

            assertThat(IndexBuilding.reasonForTexts(List.of(chunk, chunk, "tail"))).contains("passage-length");
        }

        @Test
        void shouldKeepMultiQueryRewritesAndAHydePassageAsQueries() {
            assertThat(IndexBuilding.reasonForTexts(List.of("Acme operating cash flow 2023",
                    "How much cash did Acme generate from operations in 2023?", "Acme 10-K cash flow statement"))).isNull();
            assertThat(IndexBuilding.reasonForTexts(List.of("y".repeat(1200)))).isNull();
            assertThat(IndexBuilding.reasonForTexts(List.of("y".repeat(5000)))).contains("document-length");
        }

        @Test
        void shouldTrustAnExplicitDocumentInputType() {
            assertThat(IndexBuilding.reasonForInputType("search_document")).isNotNull();
            assertThat(IndexBuilding.reasonForInputType("document")).isNotNull();
            assertThat(IndexBuilding.reasonForInputType("search_query")).isNull();
            assertThat(IndexBuilding.reasonForInputType("query")).isNull();
            assertThat(IndexBuilding.reasonForInputType("RETRIEVAL_DOCUMENT")).isNotNull();
            assertThat(IndexBuilding.reasonForInputType("RETRIEVAL_QUERY")).isNull();
        }

        @Test
        void shouldTakeATitledTextForADocument() {
            assertThat(IndexBuilding.reasonForTitle("Acme 10-K")).startsWith("index building: a text embedded with");
            assertThat(IndexBuilding.reasonForTitle(" ")).isNull();
            assertThat(IndexBuilding.reasonForTitle(null)).isNull();
        }
    }
}
