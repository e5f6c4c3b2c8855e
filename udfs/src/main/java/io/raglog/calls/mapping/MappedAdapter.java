package io.raglog.calls.mapping;

import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.mapping.MappedSection.PathOf;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * The adapter a field mapping makes for one endpoint: it reads that endpoint's calls into the same
 * {@link CallDetail}s the built-in adapters produce, so run assembly cannot tell a mapped call from a known one.
 *
 * <p>Building it checks the mapping's shape (paths spelled right, required fields present, each on the body it
 * must come from) and throws {@link IllegalArgumentException} naming the field; reading a call that does not fit
 * throws {@link AdapterException} naming the field and its path.
 */
public final class MappedAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    private final EndpointKey key;
    private final FieldMapping mapping;
    private final MappedSection section;
    private final String name;

    public MappedAdapter(EndpointKey key, FieldMapping mapping) {
        this.key = Objects.requireNonNull(key, "key");
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        if (!FieldMapping.SCHEMA.equals(mapping.schema())) {
            throw new IllegalArgumentException("mapping schema is '" + mapping.schema() + "', this reader knows "
                    + FieldMapping.SCHEMA);
        }
        if (mapping.stage() == null) {
            throw new IllegalArgumentException("stage is required");
        }
        this.name = "mapped:" + key.host() + key.pathTemplate();
        this.section = switch (mapping.stage()) {
            case CHAT -> new ChatSection(section(mapping.chat(), "chat"));
            case EMBED -> new EmbedSection(section(mapping.embed(), "embed"));
            case RETRIEVE -> new RetrieveSection(section(mapping.retrieve(), "retrieve"), key.host());
            case RERANK -> new RerankSection(section(mapping.rerank(), "rerank"));
            case NOT_A_RUN_CALL -> notARunCall(mapping.reason());
        };
    }

    private static <T> T section(T value, String name) {
        if (value == null) {
            throw new IllegalArgumentException("stage " + name + " needs a '" + name + "' section");
        }
        return value;
    }

    private static MappedSection notARunCall(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("not_a_run_call needs a reason");
        }
        return new NotARunCallSection("mapped: " + reason.strip());
    }

    /** An endpoint that is never part of a run: nothing to read, nothing to resolve. */
    private record NotARunCallSection(String why) implements MappedSection {
        @Override
        public CallDetail read(CallEvent call, String adapter) {
            return new NotARunCall(adapter, why);
        }

        @Override
        public List<PathOf> paths() {
            return List.of();
        }
    }

    /** The mapping's paths with the list each relative one is read in: what validation resolves in a sample. */
    List<MappedSection.PathOf> paths() {
        return section.paths();
    }

    public EndpointKey key() {
        return key;
    }

    public FieldMapping mapping() {
        return mapping;
    }

    /** {@code mapped:} and the endpoint, e.g. {@code mapped:search.internal/v1/kb/{id}/search}. */
    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean accepts(CallEvent call) {
        return key.equals(EndpointKey.of(call));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        return section.read(call, name);
    }
}
