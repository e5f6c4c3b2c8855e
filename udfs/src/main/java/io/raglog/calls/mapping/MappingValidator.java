package io.raglog.calls.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetail;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.calls.adapters.Bodies;
import io.raglog.calls.mapping.MappedSection.PathOf;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides whether a proposed mapping may be kept, by applying it to the call the model was shown: every path it
 * names resolves, the values have the types the detail needs, and what comes out is non-empty and plausible for the
 * stage. A mapping is kept forever and applied to every call of its endpoint, so doubt means refusal: the calls then
 * stay unclassified and counted, which is what they were before.
 */
final class MappingValidator {

    /** Below this a "vector" is a score or a count, not an embedding. */
    static final int MIN_VECTOR_DIMENSIONS = 2;

    private MappingValidator() {}

    static MappedAdapter validate(EndpointKey key, FieldMapping mapping, CallEvent sample)
            throws InvalidMappingException {
        if (!Bodies.succeeded(sample)) {
            throw new InvalidMappingException("the sample call did not succeed, nothing to check the mapping against");
        }
        MappedAdapter adapter;
        try {
            adapter = new MappedAdapter(key, mapping);
        } catch (IllegalArgumentException e) {
            throw new InvalidMappingException(e.getMessage());
        }
        for (PathOf p : adapter.paths()) {
            resolves(p, sample);
        }
        CallDetail detail;
        try {
            detail = adapter.read(sample);
        } catch (AdapterException e) {
            throw new InvalidMappingException("the sample does not fit: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new InvalidMappingException("the sample cannot be read: " + e);
        }
        plausible(detail);
        return adapter;
    }

    private static void resolves(PathOf p, CallEvent sample) throws InvalidMappingException {
        if (p.list() == null) {
            if (p.path().in(sample).isEmpty()) {
                throw new InvalidMappingException(p.path().label() + " resolves to nothing in the sample: "
                        + p.path().path().whereItStops(sample));
            }
            return;
        }
        List<JsonNode> elements = MappedValues.elements(p.list().path().withoutTrailingWildcard().select(sample));
        if (elements.isEmpty()) {
            throw new InvalidMappingException(p.list().label() + " is empty in the sample, so "
                    + p.path().label() + " cannot be checked");
        }
        for (JsonNode e : elements) {
            if (!p.path().in(e).isEmpty()) {
                return;
            }
        }
        throw new InvalidMappingException(p.path().label() + " resolves in none of the " + elements.size()
                + " elements of " + p.list().label() + ": " + p.path().path().whereItStops(elements.get(0)));
    }

    private static void plausible(CallDetail detail) throws InvalidMappingException {
        if (detail instanceof ChatDetail chat) {
            chat(chat);
        } else if (detail instanceof EmbedDetail embed) {
            embed(embed);
        } else if (detail instanceof RetrieveDetail retrieve) {
            retrieve(retrieve);
        } else if (detail instanceof RerankDetail rerank) {
            rerank(rerank);
        }
        // NotARunCall: nothing was read, nothing to doubt (an index-building embed sample lands here too; its paths
        // were resolved above).
    }

    private static void chat(ChatDetail chat) throws InvalidMappingException {
        if (chat.promptText().isBlank()) {
            throw new InvalidMappingException("the mapped prompt of the sample is empty");
        }
        if (chat.output() == null || chat.output().isBlank()) {
            throw new InvalidMappingException("chat.output is empty in the sample");
        }
        if (chat.question() != null && chat.output().strip().equals(chat.question().strip())) {
            throw new InvalidMappingException("chat.output is the question itself: it must point at the generated"
                    + " text, not at an echo of the request");
        }
    }

    private static void embed(EmbedDetail embed) throws InvalidMappingException {
        for (String t : embed.texts()) {
            if (t == null || t.isBlank()) {
                throw new InvalidMappingException("embed.texts gives an empty text");
            }
        }
        if (embed.vectors().isEmpty()) {
            throw new InvalidMappingException("embed.vectors gives no vector for the sample");
        }
        int dims = embed.vectors().get(0).length;
        for (float[] v : embed.vectors()) {
            vector(v, "embed.vectors");
            if (v.length != dims) {
                throw new InvalidMappingException("embed.vectors gives vectors of " + dims + " and " + v.length
                        + " numbers: one path must give one kind of vector");
            }
        }
    }

    private static void retrieve(RetrieveDetail r) throws InvalidMappingException {
        if ((r.queryText() == null || r.queryText().isBlank()) && r.queryVector() == null) {
            throw new InvalidMappingException("the sample's query is empty");
        }
        if (r.queryVector() != null) {
            vector(r.queryVector(), "retrieve.query_vector");
        }
        if (r.passages().isEmpty()) {
            throw new InvalidMappingException("retrieve.results is empty in the sample: nothing shows the mapping"
                    + " reads results right");
        }
        Set<String> ids = new HashSet<>();
        for (Passage p : r.passages()) {
            if (p.score() != null && !Double.isFinite(p.score())) {
                throw new InvalidMappingException("retrieve.result_score is not a finite number");
            }
            ids.add(p.id());
        }
        if (r.passages().stream().allMatch(p -> p.text() == null || p.text().isBlank())) {
            throw new InvalidMappingException("retrieve.result_text is empty in every result");
        }
        if (ids.size() < r.passages().size()) {
            throw new InvalidMappingException("retrieve.result_id gives the same id to different results: it must"
                    + " point at what tells them apart");
        }
    }

    private static void rerank(RerankDetail r) throws InvalidMappingException {
        if (r.query() == null || r.query().isBlank()) {
            throw new InvalidMappingException("rerank.query is empty in the sample");
        }
        if (r.documents().isEmpty()) {
            throw new InvalidMappingException("rerank.documents is empty in the sample");
        }
        if (r.results().isEmpty()) {
            throw new InvalidMappingException("rerank.results is empty in the sample");
        }
        for (RerankDetail.RerankResult result : r.results()) {
            if (result.score() == null || !Double.isFinite(result.score())) {
                throw new InvalidMappingException("rerank.result_score is not a finite number");
            }
        }
    }

    private static void vector(float[] v, String field) throws InvalidMappingException {
        if (v.length < MIN_VECTOR_DIMENSIONS) {
            throw new InvalidMappingException(field + " gives " + v.length + " number(s), not an embedding");
        }
        boolean allZero = true;
        for (float x : v) {
            if (!Float.isFinite(x)) {
                throw new InvalidMappingException(field + " holds a number that is not finite");
            }
            allZero &= x == 0f;
        }
        if (allZero) {
            throw new InvalidMappingException(field + " is all zeros");
        }
    }
}
