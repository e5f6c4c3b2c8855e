package io.raglog.ingest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.Serializable;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A JSON array of floating-point numbers (an embedding vector) held as the doubles themselves: to everything that
 * reads it, the same {@link ArrayNode} Jackson's {@code readTree} makes, with a {@code DoubleNode} per element made
 * when the element is read. Read as one node per element, embedding vectors were 4.4 % of the job's allocation
 * (their {@code DoubleNode}s and the growth of their lists, JFR, issue #27); {@code Vectors.fromArray} reads
 * {@link #doubles()} directly. Writing to it works as to any array node: the elements are made nodes first.
 */
public final class DoubleArrayNode extends ArrayNode {

    private static final long serialVersionUID = 1L;

    private final Elements elements;

    private DoubleArrayNode(JsonNodeFactory nodes, Elements elements) {
        super(nodes, elements);
        this.elements = elements;
    }

    /** The array of these values; {@code values} is the node's own from now on. */
    static DoubleArrayNode of(JsonNodeFactory nodes, double[] values) {
        return new DoubleArrayNode(nodes, new Elements(nodes, values));
    }

    /**
     * The elements' values, the node's own array (not to be written to), or null once the array has been written to
     * through the node API (its elements are then nodes like any array's).
     */
    public double[] doubles() {
        return elements.values;
    }

    /**
     * The same tokens {@code ArrayNode} writes (a {@code DoubleNode} writes its number), without a node per element:
     * a hinted call's bodies are written as they cross to the assembly ({@code HeldBodies}), and their vectors' nodes
     * were a hundredth of the job's allocation (JFR, issue #27).
     */
    @Override
    public void serialize(JsonGenerator g, SerializerProvider provider) throws IOException {
        double[] values = elements.values;
        if (values == null) {
            super.serialize(g, provider);
            return;
        }
        g.writeStartArray(this, values.length);
        for (double v : values) {
            g.writeNumber(v);
        }
        g.writeEndArray();
    }

    /**
     * Java serialization writes an ordinary array node, as Jackson's own nodes do: {@code ArrayNode}'s replacement
     * method is package-private, not inherited here.
     */
    private Object writeReplace() {
        return deepCopy();
    }

    /**
     * The children list: over the doubles until a write, then an ordinary list of nodes. Read-only access makes a
     * {@code DoubleNode} per {@code get}, as equal to the one {@code readTree} holds as any two of those are.
     */
    private static final class Elements extends AbstractList<JsonNode> implements RandomAccess, Serializable {

        private static final long serialVersionUID = 1L;

        private final JsonNodeFactory nodes;
        private double[] values;
        private List<JsonNode> written;

        Elements(JsonNodeFactory nodes, double[] values) {
            this.nodes = nodes;
            this.values = values;
        }

        @Override
        public JsonNode get(int index) {
            if (written != null) {
                return written.get(index);
            }
            return nodes.numberNode(values[index]);
        }

        @Override
        public int size() {
            return written != null ? written.size() : values.length;
        }

        @Override
        public JsonNode set(int index, JsonNode element) {
            return writable().set(index, element);
        }

        @Override
        public void add(int index, JsonNode element) {
            modCount++;
            writable().add(index, element);
        }

        @Override
        public JsonNode remove(int index) {
            modCount++;
            return writable().remove(index);
        }

        private List<JsonNode> writable() {
            if (written == null) {
                List<JsonNode> list = new ArrayList<>(values.length + 1);
                for (double v : values) {
                    list.add(nodes.numberNode(v));
                }
                written = list;
                values = null;
            }
            return written;
        }
    }
}
