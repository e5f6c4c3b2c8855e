package io.raglog.job;

import io.raglog.calls.ClassifiedCall;
import io.raglog.knowledge.IndexBuildingCall;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.DeadLetter;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Calls on their way in, decoded and given their stage, with what could not be: calls to an endpoint no adapter
 * knows (unclassified), input that could not be read (dead letters), and what index-building embedding calls show:
 * their model and dimension (for the embedding-drift check) and the documents they embedded (for the known
 * passages). A missing input (a deployment that reads only
 * proxy calls, or only traces) is {@link #NONE}.
 */
record IngestedCalls(DataStream<ClassifiedCall> classified, DataStream<CallEvent> unclassified,
        DataStream<DeadLetter> deadLetters, DataStream<IndexBuildingCall> indexBuilding) {

    static final IngestedCalls NONE = new IngestedCalls(null, null, null, null);

    /** Both inputs' calls as one. */
    IngestedCalls and(IngestedCalls other) {
        return new IngestedCalls(union(classified, other.classified), union(unclassified, other.unclassified),
                union(deadLetters, other.deadLetters), union(indexBuilding, other.indexBuilding));
    }

    private static <T> DataStream<T> union(DataStream<T> a, DataStream<T> b) {
        return a == null ? b : b == null ? a : a.union(b);
    }
}
