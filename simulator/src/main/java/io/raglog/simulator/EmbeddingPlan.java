package io.raglog.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.simulator.profile.Rendered;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Embedding-model faults the simulator plants on top of its usual ones, both invisible in any single call:
 *
 * <ul>
 *   <li><b>switch</b>: after {@code switchAfter} runs of pipeline {@code switchPipeline}, its question embeddings name
 *       {@code switchTo} instead of the profile's model (same dimension); its index is not rebuilt, so every later
 *       run is a mismatch;</li>
 *   <li><b>index</b>: pipeline {@code indexPipeline}'s index-building embedding calls name {@code indexModel} while its
 *       questions keep the profile's model: every run of it is a mismatch.</li>
 * </ul>
 *
 * <p>A mismatched run's retrieval scores (every numeric {@code score} / {@code _score} field in the run's replies
 * other than the embedding call's: the store's similarities) are scaled by {@link #SCORE_COLLAPSE}, as cosine similarities between two models' vectors sit
 * near zero; the passages stay as they were. Its label marks the embed stage faulty with fault type
 * {@link #FAULT_TYPE} (and, when it had no other fault, the root fault too). Only the profiles that name their
 * embedding model in OpenAI-compatible {@code /embeddings} bodies carry a plant (support-assistant, search-answers,
 * helpdesk-langchain); null fields plant nothing.
 */
public record EmbeddingPlan(String switchPipeline, int switchAfter, String switchTo, String indexPipeline,
        String indexModel) {

    public static final String FAULT_TYPE = "embed.model_mismatch";
    public static final double SCORE_COLLAPSE = 0.25;

    public EmbeddingPlan {
        if (switchPipeline != null && (switchTo == null || switchAfter < 0)) {
            throw new IllegalArgumentException("a model switch needs a model and a run count >= 0");
        }
        if (indexPipeline != null && indexModel == null) {
            throw new IllegalArgumentException("an index plant needs the model the index is built with");
        }
    }

    /** {@code PIPELINE:RUNS:MODEL}, e.g. {@code support-assistant:200:text-embedding-ada-002}. */
    public static EmbeddingPlan switchAt(String spec) {
        String[] p = spec.split(":", 3);
        if (p.length != 3) {
            throw new IllegalArgumentException("expected PIPELINE:RUNS:MODEL, got '" + spec + "'");
        }
        return new EmbeddingPlan(p[0], Integer.parseInt(p[1]), p[2], null, null);
    }

    /** {@code PIPELINE:MODEL}, e.g. {@code search-answers:text-embedding-ada-002}. */
    public EmbeddingPlan withIndex(String spec) {
        String[] p = spec.split(":", 2);
        if (p.length != 2) {
            throw new IllegalArgumentException("expected PIPELINE:MODEL, got '" + spec + "'");
        }
        return new EmbeddingPlan(switchPipeline, switchAfter, switchTo, p[0], p[1]);
    }

    public static EmbeddingPlan none() {
        return new EmbeddingPlan(null, 0, null, null, null);
    }

    /** The query model this run of the pipeline uses instead of its own, null when it keeps its own. */
    String switchedModel(String pipeline, int runOfPipeline) {
        return pipeline.equals(switchPipeline) && runOfPipeline >= switchAfter ? switchTo : null;
    }

    boolean mismatchedIndex(String pipeline) {
        return pipeline.equals(indexPipeline);
    }

    /** The index-building calls of the planted pipeline, naming the index's model. */
    Rendered indexing(String pipeline, Rendered rendered) {
        if (!mismatchedIndex(pipeline)) {
            return rendered;
        }
        return withCalls(rendered, rendered.calls().stream().map(c -> renamed(c, indexModel)).toList());
    }

    /** A run of a planted pipeline: its query model renamed (a switch) and its retrieval scores collapsed. */
    Rendered run(String pipeline, int runOfPipeline, Rendered rendered) {
        String switched = switchedModel(pipeline, runOfPipeline);
        if (switched == null && !mismatchedIndex(pipeline)) {
            return rendered;
        }
        List<CallEvent> calls = new ArrayList<>();
        for (CallEvent c : rendered.calls()) {
            CallEvent out = switched == null ? c : renamed(c, switched);
            calls.add(embedding(out) ? out : collapsed(out));
        }
        return withCalls(rendered, calls);
    }

    /** The run's label with the embed stage faulty; null when the run is not planted. */
    Label label(Label label, int runOfPipeline) {
        String switched = switchedModel(label.pipeline(), runOfPipeline);
        if (switched == null && !mismatchedIndex(label.pipeline())) {
            return label;
        }
        String detail = switched != null
                ? "queries embedded with " + switched + " against an index built with the pipeline's earlier model"
                : "index built with " + indexModel + ", queries embedded with another model";
        LabelStages s = label.stages();
        LabelStages stages = new LabelStages(s.rewrite(), 1, s.retrieve(), s.rerank(), s.assemble(), s.generate());
        boolean root = label.faultStage() == null;
        return new Label(label.schema(), label.runId(), label.pipeline(), label.profile(), label.questionId(),
                label.question(), label.runHint(), label.generatorEventId(), stages,
                root ? "embed" : label.faultStage(), root ? FAULT_TYPE : label.faultType(),
                root ? Label.ORIGIN_INJECTED : label.origin(), root ? detail : label.faultDetail(),
                label.answerCorrect(), label.isAnswerable(), label.expectedAnswer(), label.answer(),
                label.evidenceChunkIds(), label.startedAt(), label.knowledgeGap());
    }

    private static Rendered withCalls(Rendered r, List<CallEvent> calls) {
        return new Rendered(calls, r.spans(), r.runHint(), r.generatorEventId());
    }

    private static boolean embedding(CallEvent c) {
        String url = c.request() == null || c.request().url() == null ? "" : c.request().url();
        return url.endsWith("/embeddings");
    }

    private static CallEvent renamed(CallEvent c, String model) {
        if (!embedding(c)) {
            return c;
        }
        HttpRequest rq = c.request();
        HttpResponse rs = c.response();
        return new CallEvent(c.schema(), c.eventId(), c.pipeline(), c.runHint(), c.startedAt(), c.endedAt(),
                new HttpRequest(rq.method(), rq.url(), rq.headers(), withModel(rq.body(), model)),
                rs == null ? null : new HttpResponse(rs.status(), rs.headers(), withModel(rs.body(), model)),
                c.source(), c.session());
    }

    private static JsonNode withModel(JsonNode body, String model) {
        if (body instanceof ObjectNode o && o.has("model")) {
            ObjectNode copy = o.deepCopy();
            copy.set("model", TextNode.valueOf(model));
            return copy;
        }
        return body;
    }

    private static CallEvent collapsed(CallEvent c) {
        HttpResponse rs = c.response();
        if (rs == null || rs.body() == null || !(rs.body().isContainerNode())) {
            return c;
        }
        JsonNode body = rs.body().deepCopy();
        if (!scale(body)) {
            return c;
        }
        return new CallEvent(c.schema(), c.eventId(), c.pipeline(), c.runHint(), c.startedAt(), c.endedAt(),
                c.request(), new HttpResponse(rs.status(), rs.headers(), body), c.source(), c.session());
    }

    /** Scales every retrieval score field in place; true when there was one. */
    private static boolean scale(JsonNode node) {
        boolean any = false;
        if (node instanceof ObjectNode o) {
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            List<String> scores = new ArrayList<>();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if ((e.getKey().equals("score") || e.getKey().equals("_score")) && e.getValue().isNumber()) {
                    scores.add(e.getKey());
                } else {
                    any |= scale(e.getValue());
                }
            }
            for (String k : scores) {
                o.set(k, DoubleNode.valueOf(o.get(k).doubleValue() * SCORE_COLLAPSE));
                any = true;
            }
        } else if (node instanceof ArrayNode a) {
            for (JsonNode item : a) {
                any |= scale(item);
            }
        }
        return any;
    }
}
