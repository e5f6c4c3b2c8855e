package io.raglog.calls.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.ChatDetail;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.adapters.otlp.OtlpAdapters;
import io.raglog.schemas.CallEvent;
import java.util.List;

/** Span calls through a classifier with the span adapters, for the adapters' tests: each asserts what it expects. */
final class ClassifiedSpans {

    private static final CallClassifier CLASSIFIER = new CallClassifier(OtlpAdapters.all());

    private ClassifiedSpans() {}

    /** Every stage span of an OTLP/JSON fixture, classified, in the order of the trace. */
    static List<ClassifiedCall> classifyAll(String fixture) {
        OtlpDecoding decoding = new OtlpJsonDecoder().decode(OtlpFixtures.json(fixture));
        assertThat(decoding.failed()).as(decoding.error()).isFalse();
        return decoding.calls().stream().map(ClassifiedSpans::classified).toList();
    }

    static ClassifiedCall classified(CallEvent call) {
        Classification result = CLASSIFIER.classify(call);
        assertThat(result).as(String.valueOf(result)).isInstanceOf(Classification.Classified.class);
        return ((Classification.Classified) result).call();
    }

    static ChatDetail chat(CallEvent call) {
        return (ChatDetail) classified(call).detail();
    }

    /** Why the call could not be read, as the dead-letter topic would say it. */
    static String unreadableReason(CallEvent call) {
        Classification result = CLASSIFIER.classify(call);
        assertThat(result).as(String.valueOf(result)).isInstanceOf(Classification.Unreadable.class);
        return ((Classification.Unreadable) result).reason();
    }
}
