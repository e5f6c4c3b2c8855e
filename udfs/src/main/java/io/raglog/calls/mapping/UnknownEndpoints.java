package io.raglog.calls.mapping;

import io.raglog.calls.ClassifiedCall;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.llm.LlmSettings;
import io.raglog.schemas.CallEvent;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Wires {@link UnknownEndpointsFunction} into a topology: calls no adapter knew in, classified calls out. */
public final class UnknownEndpoints {

    /** Stable across releases: the operator's state (the kept mappings) is found by it in a savepoint. */
    public static final String UID = "unknown-endpoints";

    private UnknownEndpoints() {}

    public static DataStream<ClassifiedCall> apply(DataStream<CallEvent> unclassified, LlmSettings settings) {
        return apply(unclassified, settings, MappingSettings.DEFAULTS);
    }

    public static DataStream<ClassifiedCall> apply(DataStream<CallEvent> unclassified, LlmSettings settings,
            MappingSettings mapping) {
        return unclassified
                .keyBy(EndpointKey::of, TypeInformation.of(EndpointKey.class))
                .process(new UnknownEndpointsFunction(settings, mapping), JacksonTypeInfo.of(ClassifiedCall.class))
                .uid(UID)
                .name("unknown endpoints: LLM field mappings");
    }
}
