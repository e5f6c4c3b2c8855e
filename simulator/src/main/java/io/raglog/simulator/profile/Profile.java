package io.raglog.simulator.profile;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.pipeline.PipelineStyle;
import io.raglog.simulator.pipeline.RunOutcome;
import io.raglog.simulator.pipeline.StackShape;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One real RAG stack: what the pipeline does ({@link #shape()}) and the exact vendor calls it makes for a run.
 * A profile knows its vendors' JSON and nothing of how runs are planned or labeled.
 */
public interface Profile {

    /** The profile's name on the command line, e.g. {@code openai-qdrant-cohere}. */
    String name();

    /** The pipeline name its calls carry. */
    String pipeline();

    StackShape shape();

    /** How its models phrase things when nothing goes wrong: rewrite styles, embedding prefix, answers, refusals. */
    PipelineStyle style();

    /** True when it emits OTLP traces instead of going through the proxy. */
    boolean tracing();

    Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng);

    /** The calls of re-indexing a batch of chunks (embeddings of many texts, an upsert): not part of any run. */
    Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng);
}
