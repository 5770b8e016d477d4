#!/usr/bin/env bash
# Text classifier training speed side by side with the PyTorch reference trainer
# (reference_tasks.py classify, from the folder SHARED_BENCH names): the same model
# (embedding 128 -> bidirectional GRU 128 -> additive pooling v . tanh(W h) -> linear,
# dropout 0.1 on the embeddings, Adam 1e-3, clip 1, batch 32, one thread) on the same
# TSV file (the sentiment dataset, 4,000 reviews). Prints texts/s for each and the ratio,
# the median of ROUNDS runs. A figure, not a test.
#   ./bench/classify-speed.sh            # ~2 minutes on 2 cores
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
SHARED_BENCH="${SHARED_BENCH:-$ATTNLAB_ROOT/../shared/bench}"
ROUNDS="${ROUNDS:-3}"
cli="${ATTNLAB_CLI:-$ATTNLAB_BUILD/app/attnlab-cli}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Same BLAS kernels and one thread on both sides (see run-benchmarks.sh).
if grep -q avx2 /proc/cpuinfo && grep -q fma /proc/cpuinfo; then export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"; fi
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
"$cli" datasets --write sentiment --size 4000 --seed 1 --out "$work/reviews.tsv" 2>/dev/null

ours() {
  "$cli" train --task classify --corpus "$work/reviews.tsv" --arch gru --hidden 128 --embedding 128 \
    --attention additive --batch 32 --lr 0.001 --epochs 2 --val-fraction 0 --threads 1 --out "$work/m.safetensors" \
    2>/dev/null | sed -n 's/.*"pairs_per_sec":\([0-9.]*\).*/\1/p' | tail -1
}
ref() {
  /usr/bin/python3 "$SHARED_BENCH/reference_tasks.py" classify "$work/reviews.tsv" --hidden 128 --batch 32 --epochs 2 \
    --threads 1 | sed -n 's/.*items_per_sec=\([0-9.]*\).*/\1/p'
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ref_samples="" our_samples=""
for ((r = 1; r <= ROUNDS; r++)); do
  echo "round $r/$ROUNDS ..." >&2
  ref_samples+="$(ref) "
  our_samples+="$(ours) "
done
ref_speed=$(echo "$ref_samples" | tr ' ' '\n' | grep . | median)
our_speed=$(echo "$our_samples" | tr ' ' '\n' | grep . | median)
echo "classifier training, texts/s: AttnLab $our_speed, PyTorch reference $ref_speed," \
     "ratio $(awk -v a="$our_speed" -v b="$ref_speed" 'BEGIN {printf "%.2f", a / b}')x (rounds: $ROUNDS; samples: ours $our_samples/ reference $ref_samples)"
