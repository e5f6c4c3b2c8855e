"""Counts mis-assembled runs and orphan calls of a replay against the simulator's labels.
usage: count.py calls.jsonl labels.jsonl runs.jsonl [truth_calls.jsonl]
truth_calls: the calls before the hints were stripped (run_hint = the run); without it, a run is judged by its
label alone (exists, complete, has every stage its profile has)."""
import json, sys, hashlib, collections
calls_f, labels_f, runs_f = sys.argv[1:4]
truth_f = sys.argv[4] if len(sys.argv) > 4 else None

def run_id(pipeline, hint, anchor):
    basis = pipeline + "\x1fhint\x1f" + hint if hint else pipeline + "\x1fcall\x1f" + anchor
    return "run-" + hashlib.sha256(basis.encode()).hexdigest()[:24]

labels = [json.loads(l) for l in open(labels_f) if l.strip()]
runs = {}
for l in open(runs_f):
    r = json.loads(l); runs[r["run_id"]] = r
truth = collections.defaultdict(set)
present = {json.loads(l)["event_id"] for l in open(calls_f)}
if truth_f:
    for l in open(truth_f):
        c = json.loads(l)
        if c.get("run_hint") and c["event_id"] in present: truth[c["run_hint"]].add(c["event_id"])
stage_by_profile = collections.defaultdict(set)
for lb in labels:
    for s, v in lb["stages"].items():
        if v is not None: stage_by_profile[lb["profile"]].add(s)
by_fault = collections.Counter(); bad_by_fault = collections.Counter(); no_embed = collections.Counter()
mis = 0
for lb in labels:
    rid = run_id(lb["pipeline"], None if truth_f else lb["run_hint"], lb["generator_event_id"])
    r = runs.get(rid)
    fault = lb["fault_type"] if lb["fault_stage"] == "embed" else "other/none"
    by_fault[fault] += 1
    if truth_f:
        ok = r is not None and not r["incomplete"] and set(r["call_ids"]) == truth[lb["run_hint"]]
    else:
        ok = r is not None and not r["incomplete"] and all(r["stages"][s]["present"] for s in stage_by_profile[lb["profile"]] if s != "retrieve")
    if r is None or not r["stages"]["embed"]["present"]: no_embed[fault] += 1
    if not ok:
        mis += 1; bad_by_fault[fault] += 1
incomplete = [r for r in runs.values() if r["incomplete"]]
orphan_calls = sum(len(r["call_ids"]) for r in incomplete)
print(f"{len(labels)} runs, {len(runs)} assembled, {len(incomplete)} incomplete ({orphan_calls} calls), {mis} mis-assembled")
for f in sorted(by_fault):
    print(f"  {f:24s} {by_fault[f]:4d} runs  {bad_by_fault[f]:4d} mis-assembled  {no_embed[f]:4d} without an embed stage")
