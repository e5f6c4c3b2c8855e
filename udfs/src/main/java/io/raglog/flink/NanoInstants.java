package io.raglog.flink;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;
import io.raglog.schemas.IsoInstants;
import java.io.IOException;
import java.time.Instant;

/**
 * Instants between raglog's tasks as one Smile integer, their nanoseconds since the epoch, rather than the ISO-8601
 * text the contracts have. Every call and run carries several instants; as text each cost a {@code char[30]} and its
 * encoding to write, and to read a {@code String} that Smile decodes and then copies into a {@code char[]} again:
 * {@code IsoInstants$Reader.deserialize} was 8 % of what the assembly task allocated (JFR, issue #27). A long is a
 * zigzag varint of at most ten bytes, read with no object but the instant: handing a run's calls over went from
 * 65.1-65.6 to 63.5 KB allocated, a run from 89.9-90.3 to 83.5-87.6 KB (JMH {@code HandOverBenchmarks.handOverCalls},
 * {@code handOverRun}; throughput within the noise of a shared machine).
 *
 * <p>An instant whose nanoseconds do not fit a long (before 1677-09-21T00:12:43.145224192Z or after
 * 2262-04-11T23:47:16.854775807Z) is written as the same text as before. Both forms are read: the text (everything
 * written before, state in savepoints and checkpoints among it) as before, {@link IsoInstants} then
 * jackson-datatype-jsr310; an integer only as nanoseconds. jsr310 would read an integer as seconds or milliseconds,
 * depending on the mapper's features, so it never sees one here. Only {@link JacksonSerializer}'s own mapper has this
 * form, through a mix-in on {@link Instant} itself: a class's own serializer annotation comes before any module's
 * serializer and modifier, so {@code IsoInstants}' writer, shared with the contracts' JSON, does not wrap it. The
 * topics' and files' documents keep their text.
 */
final class NanoInstants {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** The first and last instants whose nanoseconds since the epoch fit a long, as seconds and their nanoseconds. */
    private static final long MIN_SECOND = Math.floorDiv(Long.MIN_VALUE, NANOS_PER_SECOND);
    private static final long MIN_NANO = Math.floorMod(Long.MIN_VALUE, NANOS_PER_SECOND);
    private static final long MAX_SECOND = Math.floorDiv(Long.MAX_VALUE, NANOS_PER_SECOND);
    private static final long MAX_NANO = Math.floorMod(Long.MAX_VALUE, NANOS_PER_SECOND);

    private NanoInstants() {}

    /** What {@link Instant} is written and read with in {@link JacksonSerializer}'s mapper. */
    @JsonSerialize(using = Writer.class)
    @JsonDeserialize(using = Reader.class)
    abstract static class InstantMixIn {}

    /** Whether {@code instant}'s nanoseconds since the epoch fit a long. */
    static boolean fits(Instant instant) {
        long second = instant.getEpochSecond();
        int nano = instant.getNano();
        return (second > MIN_SECOND && second < MAX_SECOND) || (second == MIN_SECOND && nano >= MIN_NANO)
                || (second == MAX_SECOND && nano <= MAX_NANO);
    }

    /** Its nanoseconds since the epoch; for an instant that {@link #fits}. */
    static long nanos(Instant instant) {
        // at the first second the product is below Long.MIN_VALUE, but a long's arithmetic wraps, so the sum is right
        return instant.getEpochSecond() * NANOS_PER_SECOND + instant.getNano();
    }

    static Instant ofNanos(long nanos) {
        return Instant.ofEpochSecond(0, nanos);
    }

    static final class Writer extends StdSerializer<Instant> {
        private static final long serialVersionUID = 1L;

        Writer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant instant, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (fits(instant)) {
                gen.writeNumber(nanos(instant));
            } else {
                // what jsr310 writes (ISO_INSTANT, no time zone configured on this mapper): the text as before
                gen.writeString(instant.toString());
            }
        }
    }

    /** An integer as nanoseconds; anything else as {@link IsoInstants} and jsr310 read it before. */
    static final class Reader extends DelegatingDeserializer {
        private static final long serialVersionUID = 1L;

        Reader() {
            this(InstantDeserializer.INSTANT); // what jsr310's JavaTimeModule reads an Instant with
        }

        private Reader(JsonDeserializer<?> jsr310) {
            super(jsr310);
        }

        /** Contextual as jsr310's own is ({@code DelegatingDeserializer}), the integer form kept in front of it. */
        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> jsr310) {
            return new Reader(jsr310);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            JsonToken token = parser.currentToken();
            if (token == JsonToken.VALUE_NUMBER_INT) {
                return ofNanos(parser.getLongValue()); // beyond a long fails the read: never written here
            }
            if (token == JsonToken.VALUE_NUMBER_FLOAT) {
                // jsr310 would read it as seconds; nothing written here has one
                return context.handleUnexpectedToken(Instant.class, parser);
            }
            if (token == JsonToken.VALUE_STRING) {
                // state written up to version 4 only, read once on restore: the String it costs is no matter
                Instant fast = IsoInstants.parse(parser.getText());
                if (fast != null) {
                    return fast;
                }
            }
            return _delegatee.deserialize(parser, context);
        }
    }
}
