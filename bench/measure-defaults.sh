#!/usr/bin/env bash
# The measurement behind the GRU defaults (docs/defaults.md): for each setting and seeds 1-5,
# train GRU + additive (hidden 128, 6 epochs: the issue's command plus the setting's flags) on
# toy-en-zh, toy-en-fr and a verb-final English -> German-like corpus with gold links, and
# report 1 - AER (the share of argmax attention links that are gold links) and val exact match.
#
#   bench/measure-defaults.sh [build/app/attnlab-cli]     # two trainings at a time; ~10 minutes
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=${1:-$here/../build/app/attnlab-cli}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/verb_final_corpus.py" 7 2000 "$work/verb-final"
settings=(
  "one-way, before, dropout 0.1 on both (the old default)|--no-bidirectional --query before --dropout 0.1 --dropout-on both"
  "two-way, before, no dropout (the old alignment lesson)|--bidirectional --query before --dropout 0"
  "two-way, after, dropout 0.1 on both|--bidirectional --query after --dropout 0.1 --dropout-on both"
  "two-way, after, no dropout|--bidirectional --query after --dropout 0"
  "two-way, after, dropout 0.1 on embeddings (the default)|"
)
data=("toy-en-zh|--dataset toy-en-zh" "toy-en-fr|--dataset toy-en-fr"
      "verb-final|--corpus $work/verb-final.tsv --alignments $work/verb-final.align")
jobs=()
for s in "${!settings[@]}"; do
  for d in "${data[@]}"; do
    for seed in 1 2 3 4 5; do jobs+=("$s|${d%%|*}|$seed|${d#*|}|${settings[$s]#*|}"); done
  done
done
run() {
  IFS='|' read -r s name seed dataflags flags <<<"$1"
  line=$("$cli" train $dataflags --arch gru --attention additive --hidden 128 --epochs 6 --seed "$seed" \
         --threads 1 $flags --out "$work/m-$s-$name-$seed.safetensors" 2>/dev/null | grep '^{' | tail -1)
  echo "$s $name $seed $line"
}
export -f run; export cli work
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c 'run "$@"' _ {} > "$work/results.txt"
python3 - "$work/results.txt" "${settings[@]}" <<'PY'
import json, sys
rows = [l.split(" ", 3) for l in open(sys.argv[1]) if l.strip()]
labels = [s.split("|")[0] for s in sys.argv[2:]]
names = ["toy-en-zh", "toy-en-fr", "verb-final"]
print("| setting | " + " | ".join("%s: 1 - AER (min-max) | exact" % n for n in names) + " |")
print("|---|" + "---|---|" * len(names))
for i, label in enumerate(labels):
    cells = []
    for n in names:
        m = [json.loads(r[3]) for r in rows if int(r[0]) == i and r[1] == n]
        agree = [1 - x["aer"] for x in m]
        exact = [x["val_exact"] for x in m]
        cells.append("%.2f (%.2f-%.2f) | %.3f" % (sum(agree) / len(agree), min(agree), max(agree), sum(exact) / len(exact)))
    print("| %s | %s |" % (label, " | ".join(cells)))
print()
print("per seed (setting, data, seed, 1 - AER, val_exact):")
for r in sorted(rows, key=lambda r: (int(r[0]), r[1], int(r[2]))):
    m = json.loads(r[3])
    print("  %s %s %s %.3f %.3f" % (r[0], r[1], r[2], 1 - m["aer"], m["val_exact"]))
PY
