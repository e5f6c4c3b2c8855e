package io.raglog.calls.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.calls.AdapterException;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatRole;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RerankDetail.RerankResult;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.TokenUsage;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

class MappedAdapterTest {

    private static CallDetail read(FieldMapping mapping, CallEvent call) throws AdapterException {
        MappedAdapter adapter = new MappedAdapter(EndpointKey.of(call), mapping);
        assertThat(adapter.accepts(call)).isTrue();
        return adapter.read(call);
    }

    @Test
    void shouldReadACustomSearchServiceIntoARetrieval() throws Exception {
        CallEvent call = InHouseCalls.acmeSearch(42);
        RetrieveDetail r = (RetrieveDetail) read(InHouseCalls.searchMapping(), call);

        assertThat(r.adapter()).isEqualTo("mapped:search.internal:8080/v1/kb/{id}/search");
        assertThat(r.store()).isEqualTo("search.internal:8080");
        assertThat(r.queryText()).isEqualTo("Acme operating cash flow 2023");
        assertThat(r.queryVector()).isNull();
        assertThat(r.topK()).isEqualTo(3);
        assertThat(r.passages()).extracting(Passage::id).containsExactly("fin-2023-07", "fin-2022-03", "hr-2023-11");
        assertThat(r.passages()).extracting(Passage::rank).containsExactly(1, 2, 3);
        assertThat(r.passages().get(0).text()).startsWith("Acme's operating cash flow in 2023 was $4.1 billion");
        assertThat(r.passages().get(0).score()).isEqualTo(0.91);
    }

    @Test
    void shouldReadAnAnswerWrapperAsAGeneratorWithItsQuestionAndSources() throws Exception {
        CallEvent call = InHouseCalls.answer("What was Acme's operating cash flow in 2023?",
                "Acme's operating cash flow in 2023 was $4.1 billion.",
                "Acme's operating cash flow in 2023 was $4.1 billion, up from $3.2 billion in 2022.",
                "In 2022 Acme reported revenue of $18.4 billion.");
        ChatDetail chat = (ChatDetail) read(InHouseCalls.answerMapping(), call);

        assertThat(chat.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(chat.question()).isEqualTo("What was Acme's operating cash flow in 2023?");
        assertThat(chat.contextPassages()).containsExactly(
                "Acme's operating cash flow in 2023 was $4.1 billion, up from $3.2 billion in 2022.",
                "In 2022 Acme reported revenue of $18.4 billion.");
        assertThat(chat.output()).isEqualTo("Acme's operating cash flow in 2023 was $4.1 billion.");
        assertThat(chat.model()).isEqualTo("llama-3.1-70b");
        assertThat(chat.usage()).isEqualTo(new TokenUsage(812, 24));
        assertThat(chat.streamed()).isFalse();
    }

    @Test
    void shouldKeepASingleSourceWholeAndAWrapperWithoutSourcesAGenerator() throws Exception {
        ChatDetail one = (ChatDetail) read(InHouseCalls.answerMapping(), InHouseCalls.answer(
                "Who founded Acme?", "Jane Roe founded Acme in 1987.", "Acme was founded in 1987 by Jane Roe."));
        assertThat(one.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(one.contextPassages()).containsExactly("Acme was founded in 1987 by Jane Roe.");

        ChatDetail none = (ChatDetail) read(InHouseCalls.answerMapping(), InHouseCalls.answer(
                "Who founded Acme?", "I could not find that in the documents."));
        assertThat(none.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(none.contextPassages()).isEmpty();
        assertThat(none.question()).isEqualTo("Who founded Acme?");
    }

    @Test
    void shouldLetThePromptRulesTellARewriteFromAGenerationThroughAGateway() throws Exception {
        FieldMapping gateway = InHouseCalls.gatewayMapping();
        ChatDetail rewrite = (ChatDetail) read(gateway, InHouseCalls.gateway(
                "Rewrite the user's question into three search queries, one per line.",
                "What was Acme's operating cash flow in 2023?",
                "Acme operating cash flow 2023\nAcme cash flow statement 2023\nAcme 2023 annual report cash flow"));
        ChatDetail generate = (ChatDetail) read(gateway, InHouseCalls.gateway(
                "Use the following pieces of context to answer the question.",
                "Context:\n[1] Acme's operating cash flow in 2023 was $4.1 billion.\n\n"
                        + "[2] In 2022 Acme reported revenue of $18.4 billion.\n\n"
                        + "Question: What was Acme's operating cash flow in 2023?",
                "It was $4.1 billion."));

        assertThat(rewrite.role()).isEqualTo(ChatRole.REWRITE);
        assertThat(rewrite.messages()).extracting(m -> m.role()).containsExactly("system", "user");
        assertThat(rewrite.usage()).isEqualTo(new TokenUsage(640, 31));
        assertThat(generate.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(generate.question()).isEqualTo("What was Acme's operating cash flow in 2023?");
        assertThat(generate.contextPassages()).containsExactly("Acme's operating cash flow in 2023 was $4.1 billion.",
                "In 2022 Acme reported revenue of $18.4 billion.");
    }

    @Test
    void shouldReadAnEmbeddingServiceAndLeaveIndexBuildingOutOfRuns() throws Exception {
        EmbedDetail e = (EmbedDetail) read(InHouseCalls.embedMapping(), InHouseCalls.embed("Acme cash flow 2023"));
        assertThat(e.texts()).containsExactly("Acme cash flow 2023");
        assertThat(e.vectors()).singleElement().satisfies(v -> assertThat(v).hasSize(8));
        assertThat(e.model()).isEqualTo("bge-small-inhouse");

        String[] chunks = new String[20];
        for (int i = 0; i < chunks.length; i++) {
            chunks[i] = "Chunk " + i + " of the annual report.";
        }
        assertThat(read(InHouseCalls.embedMapping(), InHouseCalls.embed(chunks))).isInstanceOf(NotARunCall.class);
    }

    @Test
    void shouldReadARankerThatNamesDocumentsByPositionBestFirst() throws Exception {
        CallEvent call = InHouseCalls.rank("Acme operating cash flow 2023",
                new String[] {"Revenue 2022.", "Cash flow 2023 was $4.1 billion.", "Headcount 2023."},
                new int[] {0, 1}, new double[] {0.12, 0.97});
        RerankDetail r = (RerankDetail) read(InHouseCalls.rankMapping(), call);

        assertThat(r.query()).isEqualTo("Acme operating cash flow 2023");
        assertThat(r.documents()).hasSize(3).element(1).isEqualTo("Cash flow 2023 was $4.1 billion.");
        assertThat(r.results()).containsExactly(new RerankResult(1, 0.97), new RerankResult(0, 0.12));
        assertThat(r.topN()).isEqualTo(2);
    }

    @Test
    void shouldReadTheRequestOfAFailedCallAndNothingOfItsReply() throws Exception {
        RetrieveDetail r = (RetrieveDetail) read(InHouseCalls.searchMapping(),
                InHouseCalls.failed(InHouseCalls.acmeSearch(1), 503));
        assertThat(r.queryText()).isEqualTo("Acme operating cash flow 2023");
        assertThat(r.passages()).isEmpty();

        ChatDetail chat = (ChatDetail) read(InHouseCalls.answerMapping(),
                InHouseCalls.failed(InHouseCalls.answer("Who founded Acme?", "n/a"), 500));
        assertThat(chat.output()).isNull();
        assertThat(chat.question()).isEqualTo("Who founded Acme?");
    }

    @Test
    void shouldSayWhichFieldDoesNotFitWhenTheServiceChangesShape() {
        CallEvent renamed = InHouseCalls.withResponse(InHouseCalls.acmeSearch(1),
                Json.MAPPER.createObjectNode().set("results", Json.MAPPER.createArrayNode()));
        assertThatThrownBy(() -> read(InHouseCalls.searchMapping(), renamed))
                .isInstanceOf(AdapterException.class)
                .hasMessage("retrieve.results (response.hits[*]) is missing");

        var hits = Json.MAPPER.createObjectNode();
        hits.putArray("hits").addObject().put("relevance", "high").putObject("doc").put("id", "a").put("body", "b");
        assertThatThrownBy(() -> read(InHouseCalls.searchMapping(), InHouseCalls.withResponse(
                InHouseCalls.acmeSearch(1), hits)))
                .isInstanceOf(AdapterException.class)
                .hasMessageContaining("retrieve.result_score (relevance) is text \"high\", expected a number");
    }

    @Test
    void shouldRefuseAMappingThatCannotWorkWhenItIsBuilt() {
        EndpointKey key = EndpointKey.of(InHouseCalls.acmeSearch(1));
        assertThatThrownBy(() -> new MappedAdapter(key, FieldMapping.retrieve(new FieldMapping.Retrieve(
                "request.query", null, null, "response.hits", "doc.id", "the body of each doc", null))))
                .hasMessageStartingWith("retrieve.result_text:");
        assertThatThrownBy(() -> new MappedAdapter(key, FieldMapping.chat(new FieldMapping.Chat(null, null, null,
                null, "request.prompt", null, null, null, "request.prompt", null, null, null))))
                .hasMessage("chat.output must be a path into the response, not 'request.prompt'");
        assertThatThrownBy(() -> new MappedAdapter(key, FieldMapping.retrieve(new FieldMapping.Retrieve(
                null, null, null, "response.hits", null, "doc.body", null))))
                .hasMessageContaining("query_text, query_vector or both");
        assertThatThrownBy(() -> new MappedAdapter(key, new FieldMapping(null, FieldMapping.Kind.RERANK, null, null,
                InHouseCalls.searchMapping().retrieve(), null, null)))
                .hasMessageContaining("needs a 'rerank' section");
    }

    @Test
    void shouldOnlyAcceptCallsOfItsOwnEndpoint() {
        MappedAdapter adapter = new MappedAdapter(EndpointKey.of(InHouseCalls.acmeSearch(1)),
                InHouseCalls.searchMapping());
        assertThat(adapter.accepts(InHouseCalls.acmeSearch(99))).isTrue();
        assertThat(adapter.accepts(InHouseCalls.withPipeline(InHouseCalls.acmeSearch(1), "billing-bot"))).isFalse();
        assertThat(adapter.accepts(InHouseCalls.embed("q"))).isFalse();
    }

    @Test
    void shouldSurviveJavaSerializationLikeEveryAdapter() throws Exception {
        CallEvent call = InHouseCalls.answer("Who founded Acme?", "Jane Roe.", "Acme was founded by Jane Roe.");
        MappedAdapter copy = InstantiationUtil.clone(new MappedAdapter(EndpointKey.of(call),
                InHouseCalls.answerMapping()));
        assertThat(((ChatDetail) copy.read(call)).output()).isEqualTo("Jane Roe.");
    }

    @Test
    void shouldRoundTripAMappingAsVersionedJson() {
        FieldMapping m = InHouseCalls.answerMapping();
        String json = Json.write(m);
        assertThat(json).contains("\"schema\":\"raglog.field-mapping/v1\"", "\"stage\":\"chat\"",
                "\"context_text\":\"snippet\"");
        assertThat(Json.read(json, FieldMapping.class)).isEqualTo(m);
    }
}
