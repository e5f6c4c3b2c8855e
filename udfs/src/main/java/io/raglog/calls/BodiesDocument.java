package io.raglog.calls;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.BiConsumer;

/**
 * A call's two bodies written as {@code mapper.writeValue(out, new JsonNode[] {request, response})} writes them, token
 * for token, with each object's fields walked by {@link ObjectNode#forEachEntry} rather than through its entry set.
 * The trees a call is decoded into hold each object's fields in a {@code CompactLinkedMap}, whose entry set makes an
 * entry object per field as it is iterated, which {@code ObjectNode.serialize} does: a tenth of the decode and classify
 * task's allocation (JFR, issue #27). Its {@code forEach} makes none. Plain object and array nodes are walked here,
 * with the same generator calls {@code ObjectNode.serialize} and {@code ArrayNode.serialize} make; every other node
 * (texts, numbers, a {@code DoubleArrayNode}, any subclass) writes itself, as it does under {@code writeValue}. Where the
 * mapper's configuration would make those two filter or sort what they write, {@code writeValue} itself writes.
 */
final class BodiesDocument implements BiConsumer<String, JsonNode> {

    private final JsonGenerator g;
    private final SerializerProvider provider;

    private BodiesDocument(JsonGenerator g, SerializerProvider provider) {
        this.g = g;
        this.provider = provider;
    }

    /** The document {@code [request, response]}, either possibly null, into {@code out}. */
    static void write(ObjectMapper mapper, OutputStream out, JsonNode request, JsonNode response) throws IOException {
        if (!writesAsBelow(mapper.getSerializationConfig())) {
            mapper.writeValue(out, new JsonNode[] {request, response});
            return;
        }
        // createGenerator initializes the generator with the mapper's configuration, as writeValue does
        try (JsonGenerator g = mapper.createGenerator(out)) {
            BodiesDocument document = new BodiesDocument(g, mapper.getSerializerProviderInstance());
            g.writeStartArray(null, 2);
            document.element(request);
            document.element(response);
            g.writeEndArray();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Whether {@code ObjectNode.serialize} writes every field in order under this configuration, as walked here. */
    static boolean writesAsBelow(SerializationConfig config) {
        return config.isEnabled(SerializationFeature.WRITE_EMPTY_JSON_ARRAYS)
                && config.isEnabled(JsonNodeFeature.WRITE_NULL_PROPERTIES)
                && !config.isEnabled(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
                && !config.isEnabled(SerializationFeature.WRAP_ROOT_VALUE);
    }

    /** An element of the array: a null one as an object array's serializer writes it. */
    private void element(JsonNode node) throws IOException {
        if (node == null) {
            provider.defaultSerializeNull(g);
        } else {
            node(node);
        }
    }

    private void node(JsonNode node) throws IOException {
        if (node.getClass() == ObjectNode.class) {
            g.writeStartObject(node);
            ((ObjectNode) node).forEachEntry(this);
            g.writeEndObject();
        } else if (node.getClass() == ArrayNode.class) {
            ArrayNode array = (ArrayNode) node;
            int size = array.size();
            g.writeStartArray(array, size);
            for (int i = 0; i < size; i++) {
                node(array.get(i));
            }
            g.writeEndArray();
        } else {
            node.serialize(g, provider);
        }
    }

    /** One field of the object being written. */
    @Override
    public void accept(String name, JsonNode value) {
        try {
            g.writeFieldName(name);
            node(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
