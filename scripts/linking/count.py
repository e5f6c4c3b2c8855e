"""Counts mis-assembled runs and orphan calls of a replay against the simulator's labels.
usage: count.py calls.jsonl labels.jsonl runs.jsonl truth_calls.jsonl
calls: what was replayed; truth_calls: the same calls before their run hints were stripped (a hint names its run).
A run is mis-assembled when it is missing, incomplete, lacks a stage its profile has (retrieval aside: dropping the
retrieval calls leaves it reconstructed, and with it context assembly where no reranker hands on), or, for a profile that sends hints, holds other calls than its own."""
import collections
import hashlib
import json
import sys

calls_f, labels_f, runs_f, truth_f = sys.argv[1:5]


def run_id(pipeline, anchor):
    """raglog's run id of a run linked by content: the pipeline and its generator call (RunIds.of)."""
    return "run-" + hashlib.sha256((pipeline + "\x1fcall\x1f" + anchor).encode()).hexdigest()[:24]


labels = [json.loads(l) for l in open(labels_f) if l.strip()]
runs = {}
for line in open(runs_f):
    r = json.loads(line)
    runs[r["run_id"]] = r
by_hint = {r["run_hint"]: r for r in runs.values() if r.get("run_hint")}
present = {json.loads(l)["event_id"] for l in open(calls_f)}
truth = collections.defaultdict(set)
for line in open(truth_f):
    c = json.loads(line)
    if c.get("run_hint") and c["event_id"] in present:
        truth[c["run_hint"]].add(c["event_id"])
stages = collections.defaultdict(set)
for lb in labels:
    stages[lb["profile"]].update(s for s, v in lb["stages"].items() if v is not None)



def unknown_hand_on(r, lb):
    """Without a reranker, what reached the prompt is read against the retrieval call: dropped, there is no
    assembly to read (retrieval's passages are reconstructed from the prompt itself)."""
    return "rerank" not in stages[lb["profile"]] and r["stages"]["retrieve"].get("reconstructed", False)


reasons = collections.Counter()
for lb in labels:
    r = runs.get(run_id(lb["pipeline"], lb["generator_event_id"])) or by_hint.get(lb["run_hint"])
    if r is None:
        reason = "no run"
    elif r["incomplete"]:
        reason = "incomplete"
    elif any(s != "retrieve" and not r["stages"][s]["present"] and not (s == "assemble" and unknown_hand_on(r, lb))
             for s in stages[lb["profile"]]):
        reason = "a stage missing"
    elif lb["run_hint"] and truth.get(lb["run_hint"]) and set(r["call_ids"]) != truth[lb["run_hint"]]:
        reason = "other calls than its own"
    else:
        continue
    fault = lb["fault_type"] if lb["fault_stage"] == "embed" else "no embed fault"
    reasons[(lb["profile"], fault, reason)] += 1
incomplete = [r for r in runs.values() if r["incomplete"]]
print(f"{len(labels)} runs, {len(runs)} assembled, {sum(reasons.values())} mis-assembled, {len(incomplete)} incomplete "
      f"({sum(len(r['call_ids']) for r in incomplete)} orphan calls)")
for (profile, fault, reason), n in sorted(reasons.items()):
    print(f"  {profile:28s} {fault:22s} {reason:26s} {n}")
