#!/usr/bin/env bash
# Measures the figures of docs/model-card.md again, each on runs the models and thresholds never saw:
# Questions come from the simulator's fixed article splits (squad-splits.json), so no question, paragraph or article
# of an evaluation was seen in training: held-out and economy on `test`, the unseen profile on `unseen`, its bundle
# trained on `train`; each sample is smaller than its split's pool, so no question repeats within it either.
#   (a) held-out runs: 1,050 runs of all five profiles on the test split, scored by the shipped bundle
#       (the report also gives tiered mode, RAGLOG_LLM_MODE=tiered, from the same features: skipped runs save the
#       calls they made);
#   (b) economy mode (RAGLOG_LLM_ECONOMY=true: no statement-by-statement support check) on the same runs;
#   (c) an unseen profile: a bundle trained like the default on four profiles only, scored on the fifth.
# The features come from the OFFLINE judge, a deterministic proxy for an LLM judge: its figures are not an LLM's.
#
#   scripts/evaluate-default-bundle.sh [WORK_DIR] [HELD_OUT_PROFILE]   (default profile: ollama-jina-vllm)
#
# About 30-45 minutes on 2 shared cores. Reports (table on stdout, JSON in WORK_DIR/*.json).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="${1:-$(mktemp -d -t raglog-evaluate-XXXXXX)}"
unseen="${2:-ollama-jina-vllm}"
mkdir -p "$work"
corpus=()
split() { if [ -z "${RAGLOG_CORPUS:-}" ]; then echo "--split $1"; fi; }
# the article splits are the SQuAD file's; another corpus has other articles (then every question is asked)
if [ -n "${RAGLOG_CORPUS:-}" ]; then corpus=(--corpus "$RAGLOG_CORPUS"); fi
unset RAGLOG_LLM_ECONOMY RAGLOG_LLM_PROVIDER
all=(openai-qdrant-cohere tei-pinecone-anthropic ollama-jina-vllm elastic-voyage-responses otel-llamaindex)
four=()
for p in "${all[@]}"; do [ "$p" = "$unseen" ] || four+=("$p"); done
four_list="$(IFS=,; echo "${four[*]}")"

otlp() { if [ -f "$1/traces.otlp.jsonl" ]; then echo "--otlp $1/traces.otlp.jsonl"; fi; }

# (a) held-out runs of another seed
# shellcheck disable=SC2046
./raglog simulate "${corpus[@]}" $(split test) --profile all --runs 1050 --seed 12 --out "$work/held-out"
# shellcheck disable=SC2046
./raglog evaluate --judge offline --calls "$work/held-out/calls.jsonl" $(otlp "$work/held-out") \
  --labels "$work/held-out/labels.jsonl" --work-dir "$work/held-out/work" \
  --dataset-name "held-out runs, test split, simulator seed 12" --json-out "$work/held-out.json"

# (b) economy mode on the same runs (the checks run again, without the support check)
# shellcheck disable=SC2046
RAGLOG_LLM_ECONOMY=true ./raglog evaluate --judge offline --calls "$work/held-out/calls.jsonl" \
  $(otlp "$work/held-out") --labels "$work/held-out/labels.jsonl" --work-dir "$work/held-out/work-economy" \
  --dataset-name "held-out runs, test split, simulator seed 12, economy mode" --json-out "$work/economy.json"

# (c) train on four profiles, test on the fifth
# shellcheck disable=SC2046
./raglog simulate "${corpus[@]}" $(split train) --profile "$four_list" --runs 2000 --seed 21 \
  --out "$work/four-profiles"
# shellcheck disable=SC2046
./raglog simulate "${corpus[@]}" $(split unseen) --profile "$unseen" --runs 420 --seed 22 --out "$work/unseen-profile"
# shellcheck disable=SC2046
./raglog train --judge offline --name "raglog-without-$unseen" --max-run-fpr 0.05 \
  --calls "$work/four-profiles/calls.jsonl" $(otlp "$work/four-profiles") \
  --labels "$work/four-profiles/labels.jsonl" --work-dir "$work/four-profiles/work" --out "$work/bundle-four-profiles"
# shellcheck disable=SC2046
./raglog evaluate --judge offline --bundle "$work/bundle-four-profiles" \
  --calls "$work/unseen-profile/calls.jsonl" $(otlp "$work/unseen-profile") \
  --labels "$work/unseen-profile/labels.jsonl" --work-dir "$work/unseen-profile/work" \
  --dataset-name "unseen profile $unseen on the unseen split (bundle trained on the other four, train split)" \
  --json-out "$work/unseen-profile.json"
echo "reports in $work"
