#!/usr/bin/env bash
# The linking goal of issue #23: 1,000 all-faulty runs of every training profile (the in-process-store
# `langchain-memory` and the OTLP `otel-llamaindex` among them), interleaved, their run hints stripped (the hints are
# the truth of which call is whose), replayed twice: as recorded, and with every retrieval call dropped (as if each
# pipeline kept its vectors in process, so no query vector links the embedding). Counts runs that are missing,
# incomplete, lack a stage their profile has, or hold other calls than their own; and orphan calls (incomplete runs).
# usage: scripts/linking/measure-unhinted-linking.sh OUT_DIR   (uses ./raglog of this checkout; ~5 min on 2 cores)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; root="$here/../.."; out="$1"; mkdir -p "$out"
cd "$root"
./raglog simulate --profile all --runs 1000 --seed 31 --fault-rate 1.0 --out "$out/sim"
python3 "$here/strip.py" "$out/sim/calls.jsonl" "$out/sim/calls.stripped.jsonl"
python3 "$here/strip.py" "$out/sim/calls.jsonl" "$out/sim/calls.inproc.jsonl" --no-retrieval
for variant in stripped inproc; do
  ./raglog replay --calls "$out/sim/calls.$variant.jsonl" --otlp "$out/sim/traces.otlp.jsonl" \
    --runs-out "$out/$variant.runs.jsonl" --dlq-out "$out/$variant.dlq.jsonl" >/dev/null
  echo "-- $variant"
  python3 "$here/count.py" "$out/sim/calls.$variant.jsonl" "$out/sim/labels.jsonl" "$out/$variant.runs.jsonl" \
    "$out/sim/calls.jsonl"
done
