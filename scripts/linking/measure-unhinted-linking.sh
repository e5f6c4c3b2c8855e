#!/usr/bin/env bash
# Mis-assembled runs and orphan calls of unhinted runs with every embed fault, before/after a linking change:
# simulate all-faulty runs, strip the run hints (the hints are the truth of which call is whose), drop the retrieval
# calls (an in-process vector store: no query vector links the embedding), replay, count against the labels.
# usage: scripts/linking/measure-unhinted-linking.sh OUT_DIR   (uses ./raglog of this checkout)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; root="$here/../.."; out="$1"; mkdir -p "$out"
cd "$root"
./raglog simulate --profile tei-pinecone-anthropic,elastic-voyage-responses --runs 400 --seed 11 --fault-rate 1.0 --out "$out/unhinted"
./raglog simulate --profile ollama-jina-vllm,openai-qdrant-cohere --runs 400 --seed 12 --fault-rate 1.0 --out "$out/hinted"
python3 "$here/strip.py" "$out/hinted/calls.jsonl" "$out/hinted/calls.stripped.jsonl"
python3 "$here/strip.py" "$out/hinted/calls.jsonl" "$out/hinted/calls.inproc.jsonl" --no-retrieval
python3 "$here/strip.py" "$out/unhinted/calls.jsonl" "$out/unhinted/calls.inproc.jsonl" --no-retrieval
for f in unhinted/calls unhinted/calls.inproc hinted/calls.stripped hinted/calls.inproc; do
  n="${f//\//_}"
  ./raglog replay --calls "$out/$f.jsonl" --runs-out "$out/$n.runs.jsonl" --dlq-out "$out/$n.dlq.jsonl" >/dev/null
  echo "-- $f"
  case "$f" in
    hinted/*) python3 "$here/count.py" "$out/$f.jsonl" "$out/hinted/labels.jsonl" "$out/$n.runs.jsonl" "$out/hinted/calls.jsonl" ;;
    *) python3 "$here/count.py" "$out/$f.jsonl" "$out/unhinted/labels.jsonl" "$out/$n.runs.jsonl" ;;
  esac
done
