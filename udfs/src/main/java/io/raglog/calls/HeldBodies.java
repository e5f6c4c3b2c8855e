package io.raglog.calls;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
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
 * ({@code classifyAndHandOverCalls}).
 */
public final class HeldBodies {

    /** The configuration of the serializer the trees crossed in before; thread-safe once configured. */
    private static final SmileMapper SMILE = Json.configure(SmileMapper.builder());

    /** Each thread's buffer to write the document into before it is copied out at its size. */
    private static final ThreadLocal<ReusedBytes> BUFFER = ThreadLocal.withInitial(ReusedBytes::new);

    private final byte[] smile;

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    HeldBodies(byte[] smile) {
        this.smile = smile;
    }

    /** The event's bodies, or null when it has none. */
    static HeldBodies of(CallEvent event) {
        JsonNode request = event.request() == null ? null : event.request().body();
        JsonNode response = event.response() == null ? null : event.response().body();
        if (request == null && response == null) {
            return null;
        }
        ReusedBytes buffer = BUFFER.get();
        try {
            SMILE.writeValue(buffer, new JsonNode[] {request, response});
            return new HeldBodies(buffer.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("a call's bodies could not be written", e);
        } finally {
            buffer.release();
        }
    }

    /** The event, without its bodies, with these put back: the call as it was captured. */
    CallEvent restoredTo(CallEvent event) {
        JsonNode both;
        try {
            both = SMILE.readTree(smile);
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
    @JsonValue
    byte[] smile() {
        return smile;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeldBodies other && Arrays.equals(smile, other.smile);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(smile);
    }

    @Override
    public String toString() {
        return "HeldBodies[" + smile.length + " bytes of Smile]";
    }
}
