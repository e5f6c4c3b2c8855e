package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.Calls;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.drift.IndexEmbedding;
import io.raglog.drift.IndexEmbeddings;
import io.raglog.knowledge.IndexedPassages;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import org.junit.jupiter.api.Test;

/** Vertex AI's text embedding models through {@code :predict}: a query embedded, documents indexed, other models. */
class VertexEmbedAdapterTest {

    private static final String PROJECT = "https://us-central1-aiplatform.googleapis.com/v1/projects/acme-ir-prod"
            + "/locations/us-central1";
    private static final String MODELS = PROJECT + "/publishers/google/models/";

    @Test
    void shouldReadAQueryEmbeddingWithItsModelFromThePathAndItsTokens() {
        ClassifiedCall call = classified(post(MODELS + "text-embedding-005:predict", "{'instances':[{'content':"
                + "'Acme operating cash flow 2023','task_type':'RETRIEVAL_QUERY'}],'parameters':"
                + "{'outputDimensionality':4,'autoTruncate':true}}", 200, "{'predictions':[{'embeddings':{'values':"
                + "[0.25,-0.5,0.75,0.125],'statistics':{'token_count':7,'truncated':false}}}],'metadata':"
                + "{'billableCharacterCount':26}}"));

        assertThat(call.stage()).isEqualTo(Stage.EMBED);
        EmbedDetail d = (EmbedDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("vertex.embed");
        assertThat(d.model()).isEqualTo("text-embedding-005");
        assertThat(d.texts()).containsExactly("Acme operating cash flow 2023");
        assertThat(d.vectors()).singleElement()
                .satisfies(v -> assertThat(v).containsExactly(0.25f, -0.5f, 0.75f, 0.125f));
        assertThat(d.usage()).isEqualTo(new TokenUsage(7, null));
    }

    @Test
    void shouldReadEveryEmbeddingModelsPathAndATaskTypeInCamelCase() {
        for (String model : new String[] {"text-multilingual-embedding-002", "gemini-embedding-001",
                "textembedding-gecko@003"}) {
            EmbedDetail d = (EmbedDetail) classified(post(MODELS + model + ":predict", "{'instances':[{'content':"
                    + "'Acme cash flow','taskType':'RETRIEVAL_QUERY'},{'content':'Acme free cash flow'}]}", 200,
                    "{'predictions':[{'embeddings':{'values':[0.1,0.2]}},{'embeddings':{'values':[0.3,0.4]}}]}"))
                    .detail();

            assertThat(d.model()).isEqualTo(model);
            assertThat(d.texts()).containsExactly("Acme cash flow", "Acme free cash flow");
            assertThat(d.vectors()).hasSize(2);
            assertThat(d.usage()).isEqualTo(TokenUsage.UNKNOWN);
        }
    }

    @Test
    void shouldReadDocumentsAsIndexBuildingThatTeachesThePassagesTheModelAndTheDimension() {
        ClassifiedCall call = classified(post(MODELS + "text-embedding-005:predict", "{'instances':[{'content':"
                + "'Operating cash flow was $4.2 billion in 2023.','task_type':'RETRIEVAL_DOCUMENT','title':'10-K'},"
                + "{'content':'Revenue grew 12% in 2022.','task_type':'RETRIEVAL_DOCUMENT','title':'10-K'}]}", 200,
                "{'predictions':[{'embeddings':{'values':[0.1,0.2,0.3],'statistics':{'token_count':11,"
                        + "'truncated':false}}},{'embeddings':{'values':[0.3,0.2,0.1],'statistics':{'token_count':8,"
                        + "'truncated':false}}}]}"));

        assertThat(call.stage()).isNull();
        assertThat(call.detail()).isInstanceOfSatisfying(NotARunCall.class, n -> {
            assertThat(n.embedsDocuments()).isTrue();
            assertThat(n.reason()).startsWith("index building: input type 'RETRIEVAL_DOCUMENT'");
        });
        assertThat(IndexedPassages.read(call).texts()).containsExactly("Operating cash flow was $4.2 billion in 2023.",
                "Revenue grew 12% in 2022.");
        IndexEmbedding index = IndexEmbeddings.read(call);
        assertThat(index.model()).isEqualTo("text-embedding-005");
        assertThat(index.dimensions()).isEqualTo(3);
    }

    @Test
    void shouldTakeATitledTextForADocumentWhateverTheTaskType() {
        NotARunCall n = (NotARunCall) classified(post(MODELS + "text-embedding-005:predict", "{'instances':"
                + "[{'content':'Operating cash flow was $4.2 billion in 2023.','title':'Acme 10-K 2023'}]}", 200,
                "{'predictions':[{'embeddings':{'values':[0.1,0.2,0.3]}}]}")).detail();

        assertThat(n.reason()).startsWith("index building: a text embedded with a title ('Acme 10-K 2023')");
        assertThat(n.embedsDocuments()).isTrue();
    }

    @Test
    void shouldKeepTheTextsOfAThrottledCallAndRefuseAReplyOfTooFewVectors() {
        EmbedDetail throttled = (EmbedDetail) classified(post(MODELS + "text-embedding-005:predict",
                "{'instances':[{'content':'Acme cash flow','task_type':'RETRIEVAL_QUERY'}]}", 429,
                "{'error':{'code':429,'message':'Quota exceeded for aiplatform.googleapis.com/"
                        + "online_prediction_requests_per_base_model','status':'RESOURCE_EXHAUSTED'}}")).detail();

        assertThat(throttled.texts()).containsExactly("Acme cash flow");
        assertThat(throttled.vectors()).isEmpty();
        assertThat(throttled.model()).isEqualTo("text-embedding-005");
        assertThat(Calls.unreadableReason(post(MODELS + "text-embedding-005:predict", "{'instances':[{'content':"
                + "'Acme cash flow'},{'content':'Acme revenue'}]}", 200,
                "{'predictions':[{'embeddings':{'values':[0.1]}}]}"))).contains("1 predictions for 2 texts");
    }

    @Test
    void shouldClaimAModelOnItsOwnEndpointOnlyWhenItsBodyIsAnEmbeddingRequest() {
        String endpoint = PROJECT + "/endpoints/1234567890123456789:predict";
        ClassifiedCall byTaskType = classified(post(endpoint, "{'instances':[{'content':'Acme cash flow',"
                + "'task_type':'RETRIEVAL_QUERY'}]}", 200, "{'predictions':[{'embeddings':{'values':[0.1,0.2]}}]}"));
        ClassifiedCall byReply = classified(post(endpoint, "{'instances':[{'content':'Acme cash flow'}]}", 200,
                "{'predictions':[{'embeddings':{'values':[0.1,0.2]}}]}"));

        assertThat(byTaskType.detail().adapter()).isEqualTo("vertex.embed");
        assertThat(((EmbedDetail) byTaskType.detail()).model()).isNull();
        assertThat(byReply.detail().adapter()).isEqualTo("vertex.embed");
        assertThat(BuiltInAdapters.classifier().classify(post(endpoint, "{'instances':[{'content':"
                + "'This product broke after two days.'}]}", 200, "{'predictions':[{'displayNames':['negative'],"
                + "'confidences':[0.97]}]}"))).isInstanceOf(Classification.Unclassified.class);
        assertThat(BuiltInAdapters.classifier().classify(post(endpoint, "{'instances':[{'feature_a':1.5}]}", 200,
                "{'predictions':[[0.2]]}"))).isInstanceOf(Classification.Unclassified.class);
    }

    @Test
    void shouldLeavePredictionsOfOtherModelsAlone() {
        assertThat(new VertexEmbedAdapter().accepts(post(MODELS + "imagen-3.0-generate-002:predict",
                "{'instances':[{'prompt':'An annual report cover'}],'parameters':{'sampleCount':1}}", 200,
                "{'predictions':[]}"))).isFalse();
        assertThat(new VertexEmbedAdapter().accepts(post(MODELS + "text-bison@002:predict",
                "{'instances':[{'content':'Summarise Acme 10-K'}]}", 200, "{'predictions':[{'content':'...'}]}")))
                .isFalse();
        assertThat(new VertexEmbedAdapter().accepts(post(MODELS + "multimodalembedding@001:predict",
                "{'instances':[{'text':'Acme logo'}]}", 200, "{'predictions':[{'textEmbedding':[0.1]}]}"))).isFalse();
    }
}
