package io.raglog.cli.reliability;

import io.raglog.llm.LlmTestServer;
import io.raglog.llm.LlmTestServer.Fault;
import io.raglog.llm.LlmTestServer.Received;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which fault the LLM test server gives each request: a fixed share of all calls, the fault kinds in turn, decided in
 * arrival order and remembered per request. A check's call is never failed on its last allowed attempt, so the faults
 * cost retries but no answers; only the doomed requests fail every time, so exactly their checks end up degraded.
 */
final class FaultPlan {

    /** The request got no fault. */
    static final int NONE = -1;

    private final List<Fault> faults;
    private final int everyOf;
    private final int faulted;
    private final int retries;
    private final Predicate<Received> doomed;
    private final Fault doom;

    private final Map<Received, Integer> decided = new IdentityHashMap<>();
    private final Map<String, Integer> attempts = new HashMap<>();
    private int arrivals;
    private int turn;

    /**
     * @param faulted of every {@code everyOf} requests, this many get a fault (3 of 10: 30 %)
     * @param retries the client's retries per check: a call on its last attempt is never failed unless doomed
     * @param doomed requests that get {@code doom} on every attempt
     */
    FaultPlan(List<Fault> faults, int faulted, int everyOf, int retries, Predicate<Received> doomed, Fault doom) {
        this.faults = List.copyOf(faults);
        this.faulted = faulted;
        this.everyOf = everyOf;
        this.retries = retries;
        this.doomed = doomed;
        this.doom = doom;
    }

    void installOn(LlmTestServer server) {
        server.always(r -> decide(r) == faults.size(), doom);
        for (int k = 0; k < faults.size(); k++) {
            int kind = k;
            server.always(r -> decide(r) == kind, faults.get(kind));
        }
    }

    /** The index of the fault in {@code faults}, {@code faults.size()} for doom, or {@link #NONE}. */
    synchronized int decide(Received r) {
        Integer known = decided.get(r);
        if (known != null) {
            return known;
        }
        int attempt = attempts.merge(r.system() + "\n" + r.user(), 1, Integer::sum);
        int n = arrivals++;
        int fault;
        if (doomed.test(r)) {
            fault = faults.size();
        } else if (n % everyOf < faulted && attempt <= retries) {
            fault = turn++ % faults.size();
        } else {
            fault = NONE;
        }
        decided.put(r, fault);
        return fault;
    }

    /** How many requests got each fault (by index; {@link #NONE} for none, {@code faults.size()} for doom). */
    synchronized Map<Integer, Integer> tally() {
        Map<Integer, Integer> counts = new HashMap<>();
        decided.values().forEach(f -> counts.merge(f, 1, Integer::sum));
        return counts;
    }

    synchronized List<Integer> decisions() {
        return new ArrayList<>(decided.values());
    }

    List<Fault> faults() {
        return faults;
    }
}
