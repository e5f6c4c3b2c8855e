package io.raglog.cli.reliability;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.calls.otlp.OtlpDecoder;
import io.raglog.calls.otlp.OtlpDecoding;
import io.raglog.calls.otlp.SpanFilter;
import io.raglog.flink.JacksonSerializer;
import io.raglog.ingest.CallEventDecoder;
import io.raglog.ingest.DeadLetters;
import io.raglog.ingest.RawMessage;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The job's ingestion, message by message, without Flink: decode (calls or OTLP, told apart as the job tells them),
 * cross the network as the job's serializer ships records between tasks, classify, cross the keyBy shuffle, and the
 * dead letter a refused message becomes. Fast enough for tens of thousands of messages.
 */
final class InProcessIngest {

    /** What became of one message. */
    record Outcome(List<ClassifiedCall> calls, List<DeadLetter> deadLetters, int unclassified) {}

    private final CallClassifier classifier = BuiltInAdapters.classifier();
    private final OtlpDecoder json = OtlpDecoder.forEncoding(OtlpDecoder.OTLP_JSON, SpanFilter.stagesOnly());
    private final OtlpDecoder proto = OtlpDecoder.forEncoding(OtlpDecoder.OTLP_PROTO, SpanFilter.stagesOnly());
    private final JacksonSerializer<CallEvent> events = new JacksonSerializer<>(CallEvent.class);
    private final JacksonSerializer<ClassifiedCall> classified = new JacksonSerializer<>(ClassifiedCall.class);
    private final JacksonSerializer<DeadLetter> letters = new JacksonSerializer<>(DeadLetter.class);

    Outcome ingest(RawMessage message, boolean otlp) {
        List<ClassifiedCall> calls = new ArrayList<>();
        List<DeadLetter> dead = new ArrayList<>();
        int unclassified = 0;
        List<CallEvent> decoded = new ArrayList<>();
        if (otlp) {
            OtlpDecoding d = otlpDecoder(message.payload()).decode(message.payload());
            if (d.failed()) {
                dead.add(ship(letters, DeadLetters.of(message, d.error())));
            }
            decoded.addAll(d.calls());
        } else {
            CallEventDecoder.Decoded d = CallEventDecoder.decode(message.payload());
            if (d.ok()) {
                decoded.add(d.event());
            } else {
                dead.add(ship(letters, DeadLetters.of(message, d.reason())));
            }
        }
        for (CallEvent event : decoded) {
            CallEvent shipped = ship(events, event);
            Classification c = classifier.classify(shipped);
            if (c instanceof Classification.Classified ok) {
                calls.add(ship(classified, ok.call()));
            } else if (c instanceof Classification.Unreadable u) {
                dead.add(ship(letters, DeadLetters.of(new RawMessage("classify", -1, -1, Json.writeBytes(shipped)),
                        u.reason())));
            } else {
                unclassified++;
            }
        }
        return new Outcome(calls, dead, unclassified);
    }

    /** As DecodeOtlpFunction's auto mode: OTLP/JSON is an object, anything else is read as protobuf. */
    private OtlpDecoder otlpDecoder(byte[] payload) {
        for (byte b : payload) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return b == '{' ? json : proto;
            }
        }
        return proto;
    }

    /** Through the serializer the job ships records with, both ways. */
    private static <T> T ship(JacksonSerializer<T> serializer, T record) {
        try {
            DataOutputSerializer out = new DataOutputSerializer(1024);
            serializer.serialize(record, out);
            return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        } catch (IOException e) {
            throw new UncheckedIOException("the job could not ship " + record.getClass().getSimpleName(), e);
        }
    }
}
