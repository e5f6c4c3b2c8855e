#!/usr/bin/env bash
# Runs `./raglog bench` on two builds in turn (old, new, old, new, ...), each from a clean worktree of its commit, and
# prints every key both builds produced: the median of each side's runs and new / old. The machine's speed drifts
# between runs a few minutes apart (docs/benchmarks.md), so one run of each, one after the other, would make the
# comparison as much the draw as the change; alternating puts both builds on the same drift.
#
#   scripts/bench-alternate.sh OLD_REV [NEW_REV] [ROUNDS] [-- BENCH_ARGS...]
#
# NEW_REV defaults to HEAD, ROUNDS to 2, BENCH_ARGS to `--quick --skip-micro --skip-review` (end to end only; about
# 5 minutes a run on 2 cores). Results in $RAGLOG_BENCH_ALTERNATE_DIR (default: a temporary directory), one JSON per run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="${1:?usage: scripts/bench-alternate.sh OLD_REV [NEW_REV] [ROUNDS] [-- BENCH_ARGS...]}"
shift
new="HEAD"
rounds=2
if [ $# -gt 0 ] && [ "$1" != "--" ]; then new="$1"; shift; fi
if [ $# -gt 0 ] && [ "$1" != "--" ]; then rounds="$1"; shift; fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(--quick --skip-micro --skip-review); fi
command -v python3 >/dev/null || { echo "bench-alternate: python3 is needed for the summary table" >&2; exit 1; }

out="${RAGLOG_BENCH_ALTERNATE_DIR:-$(mktemp -d -t raglog-bench-alternate-XXXXXX)}"
mkdir -p "$out"
trees="$(mktemp -d -t raglog-bench-trees-XXXXXX)"
cleanup() {
  git -C "$root" worktree remove --force "$trees/old" >/dev/null 2>&1 || true
  git -C "$root" worktree remove --force "$trees/new" >/dev/null 2>&1 || true
  rm -rf "$trees"
}
trap cleanup EXIT
old_sha="$(git -C "$root" rev-parse --verify "$old^{commit}")"
new_sha="$(git -C "$root" rev-parse --verify "$new^{commit}")"
git -C "$root" worktree add --detach "$trees/old" "$old_sha" >/dev/null
git -C "$root" worktree add --detach "$trees/new" "$new_sha" >/dev/null
echo "old ${old_sha:0:12}, new ${new_sha:0:12}: $rounds rounds of ./raglog bench ${args[*]}; results in $out" >&2

for round in $(seq 1 "$rounds"); do
  for side in old new; do
    echo "round $round: $side" >&2
    (cd "$trees/$side" && ./raglog bench "${args[@]}" --out "$out/$side-$round.json") > "$out/$side-$round.log" 2>&1 \
      || { echo "bench-alternate: the $side build's run $round failed; see $out/$side-$round.log" >&2; exit 1; }
  done
done

python3 - "$out" "$rounds" "${old_sha:0:12}" "${new_sha:0:12}" <<'PY'
import json, statistics, sys
out, rounds, old, new = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def load(side):
    runs = []
    for i in range(1, rounds + 1):
        with open(f"{out}/{side}-{i}.json") as f:
            runs.append(json.load(f))  # flat: key -> number or text
    return runs
olds, news = load("old"), load("new")
keys = [k for k in news[0] if all(isinstance(r.get(k), (int, float)) for r in olds + news)]
only_new = [k for k in news[0] if k not in olds[0]]
print(f"| key | old {old} (median of {rounds}) | new {new} (median of {rounds}) | new / old |")
print("|---|---:|---:|---:|")
for k in keys:
    o = statistics.median(r[k] for r in olds)
    n = statistics.median(r[k] for r in news)
    ratio = f"{n / o:.3f}" if o else "–"
    print(f"| `{k}` | {o:.4g} | {n:.4g} | {ratio} |")
for k in only_new:
    vals = [r[k] for r in news if isinstance(r.get(k), (int, float))]
    if vals:
        print(f"| `{k}` | – | {statistics.median(vals):.4g} | – |")
PY
