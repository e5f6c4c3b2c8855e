package io.raglog.calls.builtin;

import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.adapters.AdminCallsAdapter;
import io.raglog.calls.adapters.AnthropicMessagesAdapter;
import io.raglog.calls.adapters.AzureAiSearchAdapter;
import io.raglog.calls.adapters.BedrockConverseAdapter;
import io.raglog.calls.adapters.BedrockEmbedAdapter;
import io.raglog.calls.adapters.BedrockKnowledgeBaseAdapter;
import io.raglog.calls.adapters.BedrockRerankAdapter;
import io.raglog.calls.adapters.BedrockRetrieveAndGenerateAdapter;
import io.raglog.calls.adapters.BedrockTextAdapter;
import io.raglog.calls.adapters.ChromaAdapter;
import io.raglog.calls.adapters.CohereChatAdapter;
import io.raglog.calls.adapters.CohereEmbedAdapter;
import io.raglog.calls.adapters.CohereRerankAdapter;
import io.raglog.calls.adapters.ElasticsearchAdapter;
import io.raglog.calls.adapters.GeminiEmbedAdapter;
import io.raglog.calls.adapters.GeminiGenerateAdapter;
import io.raglog.calls.adapters.JinaRerankAdapter;
import io.raglog.calls.adapters.MixedbreadRerankAdapter;
import io.raglog.calls.adapters.MilvusAdapter;
import io.raglog.calls.adapters.OllamaChatAdapter;
import io.raglog.calls.adapters.OllamaEmbedAdapter;
import io.raglog.calls.adapters.OpenAiChatAdapter;
import io.raglog.calls.adapters.OpenAiCompletionsAdapter;
import io.raglog.calls.adapters.OpenAiEmbeddingsAdapter;
import io.raglog.calls.adapters.OpenAiResponsesAdapter;
import io.raglog.calls.adapters.OpenAiVectorStoreAdapter;
import io.raglog.calls.adapters.PineconeAdapter;
import io.raglog.calls.adapters.PineconeEmbedAdapter;
import io.raglog.calls.adapters.PineconeRerankAdapter;
import io.raglog.calls.adapters.QdrantAdapter;
import io.raglog.calls.adapters.SupabaseAdapter;
import io.raglog.calls.adapters.TeiEmbedAdapter;
import io.raglog.calls.adapters.TeiRerankAdapter;
import io.raglog.calls.adapters.TurbopufferAdapter;
import io.raglog.calls.adapters.UpstashVectorAdapter;
import io.raglog.calls.adapters.VertexAiSearchAdapter;
import io.raglog.calls.adapters.VertexAnswerAdapter;
import io.raglog.calls.adapters.VertexEmbedAdapter;
import io.raglog.calls.adapters.VertexRagEngineAdapter;
import io.raglog.calls.adapters.VertexRankAdapter;
import io.raglog.calls.adapters.VertexVectorSearchAdapter;
import io.raglog.calls.adapters.VoyageRerankAdapter;
import io.raglog.calls.adapters.WeaviateAdapter;
import io.raglog.calls.adapters.otlp.OtlpAdapters;
import java.util.ArrayList;
import java.util.List;

/**
 * The adapters raglog ships, in the order they are tried. A package of its own above the adapters (HTTP and OTLP
 * spans alike), so that neither adapter package has to know the other's list.
 */
public final class BuiltInAdapters {

    private BuiltInAdapters() {}

    /** A classifier that tries the adapters raglog ships, as the job does. */
    public static CallClassifier classifier() {
        return new CallClassifier(all());
    }

    /**
     * Where two adapters could claim the same path, the more specific one comes first: Supabase's PostgREST before
     * all, as its tables and functions bear the pipeline's own names ({@code /rest/v1/embeddings} is a table); Ollama's
     * native {@code /api/embeddings} before the OpenAI-compatible {@code /embeddings}; Pinecone Inference before TEI
     * and Cohere on {@code /embed}, and before Pinecone's data plane, which takes any {@code pinecone.io} host;
     * Pinecone Inference, Jina, Voyage and TEI before Cohere on {@code /rerank}, since Cohere's shape is the one the
     * others resemble (Bedrock's by its {@code sources}), and Pinecone's before Voyage's, which takes any reply with a
     * {@code data} list; the Bedrock runtime's {@code /model/{id}/invoke} by the body the model takes, as Vertex AI's
     * {@code :rawPredict} and {@code :predict}; Google's managed retrieval before Qdrant, as Discovery Engine's paths
     * hold a {@code collections} segment; Upstash Vector before Pinecone, as both query {@code /query} with a
     * {@code topK}; the vector stores by their own path words; the generic admin probes last.
     */
    public static List<ApiAdapter> all() {
        List<ApiAdapter> all = new ArrayList<>();
        all.addAll(OtlpAdapters.all()); // span-calls only: they accept method SPAN and nothing else
        all.addAll(List.of(
                new SupabaseAdapter(),
                new OllamaChatAdapter(),
                new OllamaEmbedAdapter(),
                new OpenAiChatAdapter(),
                new OpenAiCompletionsAdapter(),
                new OpenAiEmbeddingsAdapter(),
                new OpenAiResponsesAdapter(),
                new OpenAiVectorStoreAdapter(),
                new AnthropicMessagesAdapter(),
                new CohereChatAdapter(),
                new GeminiGenerateAdapter(),
                new GeminiEmbedAdapter(),
                new VertexEmbedAdapter(),
                new BedrockConverseAdapter(),
                new BedrockEmbedAdapter(),
                new BedrockRerankAdapter(),
                new BedrockKnowledgeBaseAdapter(),
                new BedrockRetrieveAndGenerateAdapter(),
                new BedrockTextAdapter(),
                new VertexRankAdapter(),
                new VertexRagEngineAdapter(),
                new VertexAiSearchAdapter(),
                new VertexAnswerAdapter(),
                new PineconeEmbedAdapter(),
                new TeiEmbedAdapter(),
                new CohereEmbedAdapter(),
                new PineconeRerankAdapter(),
                new MixedbreadRerankAdapter(),
                new JinaRerankAdapter(),
                new VoyageRerankAdapter(),
                new TeiRerankAdapter(),
                new CohereRerankAdapter(),
                new MilvusAdapter(),
                new QdrantAdapter(),
                new UpstashVectorAdapter(),
                new TurbopufferAdapter(),
                new PineconeAdapter(),
                new VertexVectorSearchAdapter(),
                new WeaviateAdapter(),
                new ChromaAdapter(),
                new AzureAiSearchAdapter(),
                new ElasticsearchAdapter(),
                new AdminCallsAdapter()));
        return List.copyOf(all);
    }
}
