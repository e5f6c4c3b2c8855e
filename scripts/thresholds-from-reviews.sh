#!/usr/bin/env bash
# Do per-pipeline thresholds set from a team's reviewed runs help a pipeline unlike any the bundle was trained on?
#
#   1. 200 "reviewed" runs of the held-out profile unseen-hyde-mistral (pipeline mistral-kb) on the `test` article
#      split; the simulator's labels stand in for the reviewers' decisions (as `raglog export --reviewed-only` would
#      give them);
#   2. `raglog thresholds --pipeline mistral-kb` suggests that pipeline's thresholds from them (run-level FPR <= 5 %)
#      and writes a bundle copy with them;
#   3. LATER runs of the same profile, the unseen-profile sample (d) of evaluate-default-bundle.sh (the
#      `unseen` split, 420 runs, seed 22), are scored with the shipped bundle and with the copy, on the same features.
# The two samples share no article, hence no paragraph and no question (squad-splits.json); nothing is tuned on the
# later runs. The reviewed runs are dated a month earlier than the later ones.
# The features come from the OFFLINE judge, a deterministic proxy for an LLM judge: its figures are not an LLM's.
#
#   scripts/thresholds-from-reviews.sh [WORK_DIR]
#
# About 10-15 minutes on 2 cores. Reports: the tables on stdout, before.json / after.json and summary.txt in WORK_DIR.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="${1:-$(mktemp -d -t raglog-thresholds-XXXXXX)}"
mkdir -p "$work"
if [ -n "${RAGLOG_CORPUS:-}" ]; then
  echo "thresholds-from-reviews.sh: the samples are article splits of the SQuAD file the project ships; unset RAGLOG_CORPUS" >&2
  exit 2
fi
unset RAGLOG_LLM_ECONOMY RAGLOG_LLM_PROVIDER
profile=unseen-hyde-mistral
pipeline=mistral-kb
max_fpr="${RAGLOG_MAX_FPR:-0.05}"

./raglog simulate --split test --profile "$profile" --runs 200 --seed 41 --start 2025-12-01T00:00:00Z \
  --out "$work/reviewed"
./raglog thresholds --judge offline --calls "$work/reviewed/calls.jsonl" --labels "$work/reviewed/labels.jsonl" \
  --work-dir "$work/reviewed/work" --pipeline "$pipeline" --max-fpr "$max_fpr" --out "$work/bundle-$pipeline" \
  | tee "$work/thresholds.txt"

./raglog simulate --split unseen --profile "$profile" --runs 420 --seed 22 --out "$work/later"
./raglog evaluate --judge offline --calls "$work/later/calls.jsonl" --labels "$work/later/labels.jsonl" \
  --work-dir "$work/later/work" --dataset-name "later runs of $pipeline, unseen split, seed 22, shipped thresholds" \
  --json-out "$work/before.json"
./raglog evaluate --judge offline --calls "$work/later/calls.jsonl" --labels "$work/later/labels.jsonl" \
  --work-dir "$work/later/work" --reuse-features --bundle "$work/bundle-$pipeline" \
  --dataset-name "later runs of $pipeline, unseen split, seed 22, thresholds from 200 reviewed runs" \
  --json-out "$work/after.json"

{
  echo "later runs of $pipeline (offline judge, a proxy for an LLM judge): thresholds from 200 reviewed runs, max FPR $max_fpr"
  for report in before after; do
    jq -r --arg r "$report" '"  \($r): pooled stage F1 \(.raglog.pooled.f1 * 1000 | round / 1000), run-level FPR \(.raglog.runs.false_positive_rate * 1000 | round / 10)% (\(.raglog.runs.sound_runs_flagged)/\(.raglog.runs.sound_runs)), bundle \(.model_bundle)"' \
      "$work/$report.json"
  done
} | tee "$work/summary.txt"
echo "reports in $work"
