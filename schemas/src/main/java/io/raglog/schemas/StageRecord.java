package io.raglog.schemas;

import java.util.List;

/** What every stage record says about itself: whether the run had it, how long it took, which calls made it. */
public interface StageRecord {
    boolean present();

    /** Wall time from the stage's first call start to its last call end; 0 when absent. */
    long latencyMs();

    List<String> callIds();
}
