#!/usr/bin/env bash
# Opens the lockbox: the one evaluation of the shipped model bundle on the `lockbox` article split (the simulator's
# squad-splits.json), whose articles no training, threshold search, held-out evaluation, demo or tuning ever asked.
# Every figure tuned against test has been chosen, a little, for test; the lockbox is the estimate nothing was tuned
# on, and it stays that only if it is looked at ONCE, after everything else is frozen. Run it for a release, write
# the figures down, and do not change anything because of them and open it again.
#
#   scripts/lockbox.sh [WORK_DIR]
#
# Four samples on the lockbox articles, each drawn without repeating a question (the split has 556 answerable
# questions): 700 runs of the six training profiles, and 300 of each held-out profile (unseen-hyde-mistral;
# unseen-gated-claude, whose relevance gate stops a run before generation; unseen-agent-openai, an agent searching
# through a tool), which no training ever saw. The OFFLINE judge, as the shipped bundle was trained with. The reports
# (tables on stdout, JSON, and lockbox.txt with the bundle id, the commit and the date) go to WORK_DIR. The lockbox
# opened on 2026-12-02 was opened before the gated and agent profiles existed, with the first two samples.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="${1:-$(mktemp -d -t raglog-lockbox-XXXXXX)}"
mkdir -p "$work"
if [ -n "${RAGLOG_CORPUS:-}" ]; then
  echo "lockbox.sh: the lockbox is an article split of the SQuAD file the project ships; unset RAGLOG_CORPUS" >&2
  exit 2
fi
unset RAGLOG_LLM_ECONOMY RAGLOG_LLM_PROVIDER
bundle_file=job/src/main/resources/bundles/default/bundle.json
bundle_id="$(sed -n 's/^ *"id" *: *"\([^"]*\)".*/\1/p' "$bundle_file" | head -1)"
opened="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

cat >&2 <<NOTICE
################################################################################################################
##  OPENING THE LOCKBOX.  The lockbox split is to be opened ONCE per release, after the bundle, its thresholds and
##  every rule are frozen. Do not tune anything on what it shows and open it again: its figures would then be as
##  optimistic as the test split's. Bundle ${bundle_id}, commit ${commit}, ${opened}.
################################################################################################################
NOTICE

./raglog simulate --split lockbox --profile all --runs 700 --seed 31 --out "$work/lockbox"
./raglog evaluate --judge offline --calls "$work/lockbox/calls.jsonl" --otlp "$work/lockbox/traces.otlp.jsonl" \
  --labels "$work/lockbox/labels.jsonl" --work-dir "$work/lockbox/work" \
  --dataset-name "LOCKBOX (opened once): lockbox split, training profiles, seed 31, bundle $bundle_id, $opened" \
  --json-out "$work/lockbox.json" | tee "$work/lockbox-table.txt"
# one held-out profile's sample: its name in the reports' file names, the profile, the seed
held_out() {
  ./raglog simulate --split lockbox --profile "$2" --runs 300 --seed "$3" --out "$work/lockbox-$1"
  ./raglog evaluate --judge offline --calls "$work/lockbox-$1/calls.jsonl" \
    --labels "$work/lockbox-$1/labels.jsonl" --work-dir "$work/lockbox-$1/work" \
    --dataset-name "LOCKBOX (opened once): lockbox split, held-out profile $2, seed $3, bundle $bundle_id, $opened" \
    --json-out "$work/lockbox-$1.json" | tee "$work/lockbox-$1-table.txt"
}
held_out unseen unseen-hyde-mistral 32
held_out gated unseen-gated-claude 33
held_out agent unseen-agent-openai 34

{
  echo "lockbox opened: $opened"
  echo "bundle: $bundle_id"
  echo "commit: $commit"
  echo "samples: --split lockbox --profile all --runs 700 --seed 31; --profile unseen-hyde-mistral --runs 300 --seed 32;" \
    "--profile unseen-gated-claude --runs 300 --seed 33; --profile unseen-agent-openai --runs 300 --seed 34"
  echo "reports: $work/lockbox.json, $work/lockbox-unseen.json, $work/lockbox-gated.json, $work/lockbox-agent.json"
} | tee "$work/lockbox.txt"
echo "LOCKBOX OPENED ($opened, bundle $bundle_id): record these figures; do not tune on them and open it again." >&2
