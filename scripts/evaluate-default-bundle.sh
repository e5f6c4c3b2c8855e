#!/usr/bin/env bash
# Measures the shipped bundle again on runs whose questions it never saw: questions come from the simulator's fixed
# article splits (squad-splits.json), so no article, paragraph or question of an evaluation was in training.
#   (a) held-out runs: 1,050 runs of the six training profiles on the `test` split, scored by the shipped bundle
#       (the report also gives tiered mode, RAGLOG_LLM_MODE=tiered, from the same features: skipped runs save the
#       calls they made);
#   (b) economy mode (RAGLOG_LLM_ECONOMY=true: no statement-by-statement support check) on the same runs;
#   (d) the held-out profile `unseen-hyde-mistral` (HyDE rewrites, verbose cited answers, its own refusals, Mistral
#       wire shapes; never in training, `--profile all` leaves it out): 420 runs on the `unseen` split;
#   (e) (a)'s runs with an index-building batch every other run of a profile (`--index-every 2`: the pipelines'
#       indexing goes through raglog, so the known passages hold most of the knowledge base; the runs and their labels
#       are (a)'s, the index batches have their own random stream);
#   (f) the held-out profile `unseen-gated-claude` (a relevance gate before generation: a run it stopped has no
#       generator call; never in training): 420 runs on the `unseen` split;
#   (g) the held-out profile `unseen-agent-openai` (an agent: its call to a search tool is the rewrite, the tool
#       embeds in process and reranks, the next turn answers from the tool's result; never in training): 420 runs on
#       the `unseen` split.
# Each sample is smaller than its split's pool, so no question repeats within it. These are the samples design
# choices may be measured on; the figures quoted come from scripts/lockbox.sh, opened once.
# The features come from the OFFLINE judge, a deterministic proxy for an LLM judge: its figures are not an LLM's.
#
#   scripts/evaluate-default-bundle.sh [WORK_DIR]
#
# Reports (table on stdout, JSON in WORK_DIR/*.json).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="${1:-$(mktemp -d -t raglog-evaluate-XXXXXX)}"
mkdir -p "$work"
corpus=()
split() { if [ -z "${RAGLOG_CORPUS:-}" ]; then echo "--split $1"; fi; }
# the article splits are the SQuAD file's; another corpus has other articles (then every question is asked)
if [ -n "${RAGLOG_CORPUS:-}" ]; then corpus=(--corpus "$RAGLOG_CORPUS"); fi
unset RAGLOG_LLM_ECONOMY RAGLOG_LLM_PROVIDER

otlp() { if [ -f "$1/traces.otlp.jsonl" ]; then echo "--otlp $1/traces.otlp.jsonl"; fi; }

# (a) held-out runs of the training profiles, on articles training never asked about
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

# (e) the same runs where the pipelines' indexing goes through raglog
# shellcheck disable=SC2046
./raglog simulate "${corpus[@]}" $(split test) --profile all --runs 1050 --seed 12 --index-every 2 \
  --out "$work/indexing-seen"
# shellcheck disable=SC2046
./raglog evaluate --judge offline --calls "$work/indexing-seen/calls.jsonl" $(otlp "$work/indexing-seen") \
  --labels "$work/indexing-seen/labels.jsonl" --work-dir "$work/indexing-seen/work" \
  --dataset-name "held-out runs, test split, simulator seed 12, indexing seen" --json-out "$work/indexing-seen.json"

# (d) a pipeline unlike any in training
# shellcheck disable=SC2046
./raglog simulate "${corpus[@]}" $(split unseen) --profile unseen-hyde-mistral --runs 420 --seed 22 \
  --out "$work/unseen-profile"
# shellcheck disable=SC2046
./raglog evaluate --judge offline --calls "$work/unseen-profile/calls.jsonl" $(otlp "$work/unseen-profile") \
  --labels "$work/unseen-profile/labels.jsonl" --work-dir "$work/unseen-profile/work" \
  --dataset-name "held-out profile unseen-hyde-mistral, unseen split, simulator seed 22" \
  --json-out "$work/unseen-profile.json"
# (f) a pipeline with its own relevance gate before generation
# shellcheck disable=SC2046
./raglog simulate "${corpus[@]}" $(split unseen) --profile unseen-gated-claude --runs 420 --seed 22 \
  --out "$work/gated-profile"
# shellcheck disable=SC2046
./raglog evaluate --judge offline --calls "$work/gated-profile/calls.jsonl" $(otlp "$work/gated-profile") \
  --labels "$work/gated-profile/labels.jsonl" --work-dir "$work/gated-profile/work" \
  --dataset-name "held-out profile unseen-gated-claude, unseen split, simulator seed 22" \
  --json-out "$work/gated-profile.json"
# (g) an agent that searches through a tool
# shellcheck disable=SC2046
./raglog simulate "${corpus[@]}" $(split unseen) --profile unseen-agent-openai --runs 420 --seed 25 \
  --out "$work/agent-profile"
./raglog evaluate --judge offline --calls "$work/agent-profile/calls.jsonl" \
  --labels "$work/agent-profile/labels.jsonl" --work-dir "$work/agent-profile/work" \
  --dataset-name "held-out profile unseen-agent-openai, unseen split, simulator seed 25" \
  --json-out "$work/agent-profile.json"
echo "reports in $work"
