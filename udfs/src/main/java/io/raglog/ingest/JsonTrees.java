package io.raglog.ingest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonTokenId;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.Arrays;

/**
 * {@code Json.MAPPER.readTree(bytes)} for the messages raglog reads, with one difference in how (not what) it holds:
 * an array of at least {@link #MIN_PACKED} floating-point numbers is a {@link DoubleArrayNode}, its values in one
 * {@code double[]} rather than a node each. Parsing a call made 10.6 % of the job's allocation, embedding vectors as
 * number arrays a good part of it (JFR, issue #27). Everything else is what {@code readTree} does with this mapper's
 * configuration: the same parser calls in the same order (so the same errors, with the same messages), the same
 * nodes from the same node factory (an object's fields held in a {@link CompactLinkedMap}, ordered and answering as
 * the {@code LinkedHashMap} it replaces), the last of duplicate keys kept at the first one's place, anything after
 * the first value left unread. Where that could differ (a document that is not an object, a token JSON text does not
 * make, a configuration that changes how trees are read) it is {@code readTree} itself that reads.
 */
public final class JsonTrees {

    /** Below this many elements a vector saves little: short number arrays (scores, boxes) stay ordinary. */
    public static final int MIN_PACKED = 16;

    /** Past this many doubles a thread does not keep its scratch array for the next message. */
    private static final int MAX_KEPT_SCRATCH = 1 << 16;

    private static final JsonNodeFactory NODES = Json.MAPPER.getDeserializationConfig().getNodeFactory();

    /** Whether this mapper reads trees as the loop below does: its configuration is checked, not assumed. */
    private static final boolean READS_AS_BELOW = readsAsBelow(Json.MAPPER.getDeserializationConfig());

    private static final ThreadLocal<double[]> SCRATCH = ThreadLocal.withInitial(() -> new double[256]);

    /** A token or number form JSON text never gives: {@code readTree} reads the message instead. */
    private static final class NotPlainJson extends Exception {
        private static final long serialVersionUID = 1L;

        NotPlainJson() {
            super(null, null, false, false);
        }
    }

    private JsonTrees() {}

    /** The tree {@code Json.MAPPER.readTree(payload)} gives, or the exception it throws. */
    public static JsonNode read(byte[] payload) throws IOException {
        if (!READS_AS_BELOW) {
            return Json.MAPPER.readTree(payload);
        }
        // createParser initializes the parser with the mapper's configuration, as readTree does
        try (JsonParser p = Json.MAPPER.createParser(payload)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Json.MAPPER.readTree(payload); // not a message: null, a scalar, an array or nothing
            }
            Reading reading = new Reading(p, SCRATCH.get());
            ObjectNode tree = reading.object();
            if (reading.scratch.length <= MAX_KEPT_SCRATCH) {
                SCRATCH.set(reading.scratch);
            }
            return tree;
        } catch (NotPlainJson e) {
            return Json.MAPPER.readTree(payload);
        }
    }

    /** Reads as {@link #readWhole} must answer: the whole document one value, else the exception that gives. */
    private static final ObjectReader WHOLE = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /**
     * The tree {@code Json.MAPPER.reader().with(FAIL_ON_TRAILING_TOKENS).readTree(payload)} gives, or the exception it
     * throws: as {@link #read}, except that anything after the first value is an error, for inputs that must be one
     * document (an OTLP/JSON request). Whatever is not a plain object followed by nothing is read by that reader
     * itself, so errors and their messages are its own.
     */
    public static JsonNode readWhole(byte[] payload) throws IOException {
        if (!READS_AS_BELOW) {
            return WHOLE.readTree(payload);
        }
        try (JsonParser p = Json.MAPPER.createParser(payload)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return WHOLE.readTree(payload);
            }
            Reading reading = new Reading(p, SCRATCH.get());
            ObjectNode tree = reading.object();
            if (reading.scratch.length <= MAX_KEPT_SCRATCH) {
                SCRATCH.set(reading.scratch);
            }
            return p.nextToken() == null ? tree : WHOLE.readTree(payload);
        } catch (NotPlainJson | IOException e) {
            return WHOLE.readTree(payload); // the same input, so the same exception, from the reader that owns it
        }
    }

    /**
     * An empty object node whose fields are held as a parsed message's are (a {@link CompactLinkedMap}, room for
     * {@code fields} before it grows): for trees built field by field from a message, such as a span's attributes.
     */
    public static ObjectNode objectNode(int fields) {
        return new ObjectNode(NODES, new CompactLinkedMap<>(fields));
    }

    private static boolean readsAsBelow(DeserializationConfig config) {
        return !config.isEnabled(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                && !config.isEnabled(DeserializationFeature.USE_LONG_FOR_INTS)
                && !config.isEnabled(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                && !config.isEnabled(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                && !config.isEnabled(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                && !config.isEnabled(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                && config.isEnabled(JsonNodeFeature.READ_NULL_PROPERTIES);
    }

    /** One message's parse: the parser and the thread's scratch array for a vector's values. */
    private static final class Reading {
        final JsonParser p;
        double[] scratch;
        final PendingFields fields = PendingFields.ofThisThread();

        Reading(JsonParser p, double[] scratch) {
            this.p = p;
            this.scratch = scratch;
        }

        /**
         * The object whose START_OBJECT is the current token, up to and including its END_OBJECT. Its fields are held
         * in a {@link CompactLinkedMap} of their number, not the {@code LinkedHashMap} {@code NODES.objectNode()}
         * makes: the maps and their entries were 4.6 % of the job's allocation (JFR, issue #27). The node is the same
         * class either way.
         */
        ObjectNode object() throws IOException, NotPlainJson {
            int mark = fields.mark();
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                fields.push(name, value(p.nextToken()));
            }
            return new ObjectNode(NODES, fields.popMap(mark));
        }

        /** The array whose START_ARRAY is the current token, up to and including its END_ARRAY. */
        ArrayNode array() throws IOException, NotPlainJson {
            JsonToken t = p.nextToken();
            if (t != JsonToken.VALUE_NUMBER_FLOAT) {
                return rest(NODES.arrayNode(), t);
            }
            int n = 0;
            do {
                if (n == scratch.length) {
                    scratch = Arrays.copyOf(scratch, n * 2);
                }
                scratch[n++] = floatValue();
                t = p.nextToken();
            } while (t == JsonToken.VALUE_NUMBER_FLOAT);
            if (t == JsonToken.END_ARRAY && n >= MIN_PACKED) {
                return DoubleArrayNode.of(NODES, Arrays.copyOf(scratch, n));
            }
            // short, or not all floats: ordinary nodes, the floats read so far first
            ArrayNode array = NODES.arrayNode();
            for (int i = 0; i < n; i++) {
                array.add(NODES.numberNode(scratch[i]));
            }
            return rest(array, t);
        }

        /** The rest of an array from its current token {@code t}, one node per element. */
        private ArrayNode rest(ArrayNode array, JsonToken t) throws IOException, NotPlainJson {
            for (; t != JsonToken.END_ARRAY; t = p.nextToken()) {
                array.add(value(t));
            }
            return array;
        }

        /** The node for the current token {@code t}, as readTree's node deserializer makes it. */
        private JsonNode value(JsonToken t) throws IOException, NotPlainJson {
            switch (t == null ? JsonTokenId.ID_NO_TOKEN : t.id()) {
                case JsonTokenId.ID_START_OBJECT:
                    return object();
                case JsonTokenId.ID_START_ARRAY:
                    return array();
                case JsonTokenId.ID_STRING:
                    return NODES.textNode(p.getText());
                case JsonTokenId.ID_NUMBER_INT:
                    return integer();
                case JsonTokenId.ID_NUMBER_FLOAT:
                    return NODES.numberNode(floatValue());
                case JsonTokenId.ID_TRUE:
                    return NODES.booleanNode(true);
                case JsonTokenId.ID_FALSE:
                    return NODES.booleanNode(false);
                case JsonTokenId.ID_NULL:
                    return NODES.nullNode();
                default:
                    throw new NotPlainJson();
            }
        }

        /** An integer as readTree reads it (neither big-integer nor long coercion is on: see readsAsBelow). */
        private JsonNode integer() throws IOException {
            JsonParser.NumberType type = p.getNumberType();
            if (type == JsonParser.NumberType.INT) {
                return NODES.numberNode(p.getIntValue());
            }
            if (type == JsonParser.NumberType.LONG) {
                return NODES.numberNode(p.getLongValue());
            }
            return NODES.numberNode(p.getBigIntegerValue());
        }

        /** A floating-point token's double, as readTree reads one from JSON text (neither float32 nor decimal). */
        private double floatValue() throws IOException, NotPlainJson {
            if (p.getNumberTypeFP() != JsonParser.NumberTypeFP.UNKNOWN) {
                throw new NotPlainJson();
            }
            return p.getDoubleValue();
        }
    }
}
