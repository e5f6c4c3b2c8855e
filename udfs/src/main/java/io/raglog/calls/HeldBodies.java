package io.raglog.calls;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Json;
import io.raglog.schemas.ReusedBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * A hinted call's request and response bodies as assembly holds them: one Smile document, {@code [request, response]},
 * kept as bytes and read back into trees only when the call is dead-lettered for coming after its run closed. Held as
 * trees, they were rebuilt from Smile each time a call reached the assembly, for bodies nothing there reads: part of
 * reading the calls handed over, which was 48 % of that task's allocation (JFR, issue #27; most of the rest is the
 * calls' {@code detail}). Smile because it is the form the trees crossed in
 * before, so they read back as they did then (the same numbers and texts); the bytes cross as one binary value.
 * Measured (JMH {@code HandOverBenchmarks}, same session, old against new): handing a run's calls over allocated
 * 65 KB rather than 78.6 KB and ran at 19.5-20.6k runs/s rather than 12.8-15.6k ({@code handOverCalls}); counting
 * the classify task's writing of the bytes, 73.5-76 KB rather than 78.6 KB, 17.2k runs/s rather than 15.5-15.8k
 * ({@code classifyAndHandOverCalls}). Made in the classify task, they stay the trees until the call's record is
 * written, and their document is written straight into it ({@link Writer}); read back, they are the bytes.
 */
@JsonSerialize(using = HeldBodies.Writer.class)
public final class HeldBodies {

    /**
     * The configuration of the serializer the trees crossed in before; thread-safe once configured. Its generators
     * take their buffers from a pool of their own ({@link OwnBuffers}): the document is written while the call's
     * record is being written, whose generator holds the thread's buffers from Jackson's shared pool, and a generator
     * that finds them taken allocates its own (8 KB a call: JMH {@code HandOverBenchmarks.classifyAndHandOverCalls}
     * allocated 75.9 KB a run rather than 68.6 without this pool).
     */
    private static final SmileMapper SMILE = Json.configure(
            SmileMapper.builder(SmileFactory.builder().recyclerPool(new OwnBuffers()).build()));

    /** Each thread's buffer to write the document into before it is written into the record. */
    private static final ThreadLocal<ReusedBytes> BUFFER = ThreadLocal.withInitial(ReusedBytes::new);

    /** The document as read back; null while the bodies are held as {@link #request} and {@link #response}. */
    private final byte[] smile;

    private final JsonNode request;
    private final JsonNode response;

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    HeldBodies(byte[] smile) {
        this.smile = smile;
        this.request = null;
        this.response = null;
    }

    private HeldBodies(JsonNode request, JsonNode response) {
        this.smile = null;
        this.request = request;
        this.response = response;
    }

    /**
     * The event's bodies, or null when it has none: held as the trees they are until the call is written for the
     * assembly, which writes their document straight into the call's record ({@link Writer}). Written into bytes of
     * their own here, the document was copied out of the thread's buffer at its size for each hinted call: an eighth
     * of the classify task's allocation (JFR, issue #27), for bytes the record then copied again.
     */
    static HeldBodies of(CallEvent event) {
        JsonNode request = event.request() == null ? null : event.request().body();
        JsonNode response = event.response() == null ? null : event.response().body();
        if (request == null && response == null) {
            return null;
        }
        return new HeldBodies(request, response);
    }

    /** The event, without its bodies, with these put back: the call as it was captured. */
    CallEvent restoredTo(CallEvent event) {
        JsonNode both;
        try {
            both = SMILE.readTree(smile());
        } catch (IOException e) {
            throw new UncheckedIOException("a call's held bodies could not be read", e);
        }
        HttpRequest sent = event.request() == null ? null : new HttpRequest(event.request().method(),
                event.request().url(), event.request().headers(), both.get(0));
        HttpResponse received = event.response() == null ? null
                : new HttpResponse(event.response().status(), event.response().headers(), both.get(1));
        return new CallEvent(event.schema(), event.eventId(), event.pipeline(), event.runHint(), event.startedAt(),
                event.endedAt(), sent, received, event.source(), event.session());
    }

    /** The Smile document: what the call's record carries, as one binary value. */
    byte[] smile() {
        if (smile != null) {
            return smile;
        }
        ReusedBytes buffer = BUFFER.get();
        try {
            writeTo(buffer);
            return buffer.toByteArray();
        } finally {
            buffer.release();
        }
    }

    /** The document {@code [request, response]} the trees make, as {@code SMILE.writeValue} writes it. */
    private void writeTo(ReusedBytes buffer) {
        try {
            BodiesDocument.write(SMILE, buffer, request, response);
        } catch (IOException e) {
            throw new UncheckedIOException("a call's bodies could not be written", e);
        }
    }

    /** Each thread's buffers for writing a bodies document, apart from the ones Jackson's generators share. */
    private static final class OwnBuffers extends RecyclerPool.ThreadLocalPoolBase<BufferRecycler> {

        private static final long serialVersionUID = 1L;

        private static final ThreadLocal<BufferRecycler> RECYCLERS = ThreadLocal.withInitial(BufferRecycler::new);

        @Override
        public BufferRecycler acquirePooled() {
            return RECYCLERS.get();
        }
    }

    /**
     * Writes the document as one binary value, as the {@code byte[]} it is would be written: bodies held as trees
     * are written into the thread's buffer and from there into the record, with no array of their own.
     */
    static final class Writer extends StdSerializer<HeldBodies> {

        private static final long serialVersionUID = 1L;

        Writer() {
            super(HeldBodies.class);
        }

        @Override
        public void serialize(HeldBodies bodies, JsonGenerator g, SerializerProvider provider) throws IOException {
            Base64Variant base64 = provider.getConfig().getBase64Variant();
            if (bodies.smile != null) {
                g.writeBinary(base64, bodies.smile, 0, bodies.smile.length);
                return;
            }
            ReusedBytes buffer = BUFFER.get();
            try {
                bodies.writeTo(buffer);
                g.writeBinary(base64, buffer.bytes(), 0, buffer.size());
            } finally {
                buffer.release();
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeldBodies other && Arrays.equals(smile(), other.smile());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(smile());
    }

    @Override
    public String toString() {
        return "HeldBodies[" + smile().length + " bytes of Smile]";
    }
}
