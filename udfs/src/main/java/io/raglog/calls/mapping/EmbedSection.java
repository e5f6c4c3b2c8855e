package io.raglog.calls.mapping;

import static io.raglog.calls.mapping.MappedSection.from;
import static io.raglog.calls.mapping.MappedSection.required;

import io.raglog.calls.AdapterException;
import io.raglog.calls.CallDetail;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.adapters.Bodies;
import io.raglog.calls.adapters.IndexBuilding;
import io.raglog.calls.mapping.BodyPath.Root;
import io.raglog.calls.mapping.MappedValues.Named;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.TokenUsage;
import java.util.List;

/** An embeddings endpoint. Index-building batches are told from query-time calls by the built-in rule. */
final class EmbedSection implements MappedSection {

    private static final long serialVersionUID = 1L;

    private final Named texts;
    private final Named vectors;
    private final Named model;
    private final Named inputTokens;

    EmbedSection(FieldMapping.Embed e) {
        texts = from(required(Named.absolute("embed.texts", e.texts()), "embed.texts"), Root.REQUEST);
        vectors = from(required(Named.absolute("embed.vectors", e.vectors()), "embed.vectors"), Root.RESPONSE);
        model = Named.absolute("embed.model", e.model());
        inputTokens = Named.absolute("embed.input_tokens", e.inputTokens());
    }

    @Override
    public List<PathOf> paths() {
        return MappedSection.paths(new Named[] {texts, vectors, model, inputTokens}, null);
    }

    @Override
    public CallDetail read(CallEvent call, String adapter) throws AdapterException {
        List<String> sent = MappedValues.texts(texts.in(call), texts);
        if (sent.isEmpty()) {
            throw new AdapterException(texts.label() + " is missing");
        }
        String indexBuilding = IndexBuilding.reasonForTexts(sent);
        if (indexBuilding != null) {
            return new NotARunCall(adapter, indexBuilding);
        }
        List<float[]> got = List.of();
        if (Bodies.succeeded(call)) {
            got = MappedValues.vectors(vectors.in(call), vectors);
            if (got.size() != sent.size()) {
                throw new AdapterException(vectors.label() + " gives " + got.size() + " vectors for " + sent.size()
                        + " texts");
            }
        }
        Integer tokens = inputTokens == null ? null : MappedValues.integer(inputTokens.in(call), inputTokens);
        String modelName = model == null ? null : MappedValues.label(model.in(call));
        return new EmbedDetail(adapter, modelName, List.copyOf(sent), List.copyOf(got),
                tokens == null ? TokenUsage.UNKNOWN : new TokenUsage(tokens, null));
    }
}
