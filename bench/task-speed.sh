#!/usr/bin/env bash
# Training speed of the classification, vision and forecasting tasks, side by side with PyTorch
# references, and each task's two threads against one. Figures, not tests. Prints markdown table
# rows (run-benchmarks.sh prints them in its table):
#   - BiGRU + additive classifier (embedding 128, hidden 128, dropout 0.1, Adam 1e-3, clip 1, batch
#     32) on 4,000 sentiment reviews against reference_tasks.py classify (from SHARED_BENCH);
#   - the ViT (4x4 patches, d_model 64, 4 heads, 3 pre-norm layers, feed-forward 256, dropout 0.1) on
#     the first 3,000 Fashion-MNIST training images against reference_tasks.py vit;
#   - the default captioner (CNN + GRU, additive attention over a 6x6 grid, no input feeding, the
#     doubly stochastic term, batch 16) on 2,000 scenes (1,800 train) against
#     bench/reference_captioner.py (the same defaults);
#   - the default forecaster (Transformer encoder-decoder, 96 points to 12) on the seasonal series
#     against bench/reference_forecaster.py.
# One thread and the same OpenBLAS kernels on both sides; ROUNDS rounds alternating the two, the
# median of each.
#   ./bench/task-speed.sh            # ~6 minutes on 2 cores
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
SHARED_BENCH="${SHARED_BENCH:-$ATTNLAB_ROOT/../shared/bench}"
ROUNDS="${ROUNDS:-3}"
cli="${ATTNLAB_CLI:-$ATTNLAB_BUILD/app/attnlab-cli}"
py=/usr/bin/python3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The same BLAS kernels (those attnlab-cli runs with) and one thread on both sides.
attnlab_blas_kernels
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
"$cli" datasets --write sentiment --size 4000 --seed 1 --out "$work/reviews.tsv" 2>/dev/null
"$cli" datasets --write fashion-mnist --size 3000 --out "$work/images" 2>/dev/null

field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" | tail -1; }
ours() {  # task threads -> items/s
  case $1 in
  classify) "$cli" train --task classify --corpus "$work/reviews.tsv" --arch gru --hidden 128 --embedding 128 \
              --attention additive --batch 32 --lr 0.001 --epochs 2 --val-fraction 0 --threads "$2" \
              --out "$work/m.safetensors" 2>/dev/null | field pairs_per_sec ;;
  vit) "$cli" train --task image-classify --images "$work/images" --channels 1 --image-size 28 --arch vit --patch 4 \
         --hidden 64 --heads 4 --layers 3 --dropout 0.1 --batch 32 --lr 0.001 --epochs 1 --val-fraction 0.01 \
         --threads "$2" --out "$work/m.safetensors" 2>/dev/null | field images_per_sec ;;
  caption) "$cli" train --task caption --dataset scenes --arch cnn-gru --size 2000 --epochs 1 --threads "$2" \
             --out "$work/m.safetensors" 2>/dev/null | sed -n 1p | field images_per_sec ;;
  forecast) "$cli" train --task forecast --dataset seasonal --epochs 1 --threads "$2" --json \
              --out "$work/m.safetensors" 2>/dev/null | sed -n 1p | field windows_per_sec ;;
  esac
}
ref() {  # task -> items/s
  case $1 in
  classify) $py "$SHARED_BENCH/reference_tasks.py" classify "$work/reviews.tsv" --hidden 128 --batch 32 --epochs 2 \
              --threads 1 | sed -n 's/.*items_per_sec=\([0-9.]*\).*/\1/p' ;;
  vit) $py "$SHARED_BENCH/reference_tasks.py" vit "$work/images" --hidden 64 --heads 4 --layers 3 --patch 4 \
         --batch 32 --epochs 1 --threads 1 | sed -n 's/.*items_per_sec=\([0-9.]*\).*/\1/p' ;;
  caption) $py "$ATTNLAB_ROOT/bench/reference_captioner.py" --size 1800 --threads 1 \
             | sed -n 's/.*images_per_sec=\([0-9.]*\).*/\1/p' ;;
  forecast) $py "$ATTNLAB_ROOT/bench/reference_forecaster.py" --threads 1 | sed -n 's/.*windows_per_sec=\([0-9.]*\).*/\1/p' ;;
  esac
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

declare -A samples
tasks=(classify vit caption forecast)
for ((r = 1; r <= ROUNDS; r++)); do
  echo "tasks: round $r/$ROUNDS ..." >&2
  for t in "${tasks[@]}"; do
    samples[ref_$t]+="$(ref "$t") "
    samples[one_$t]+="$(ours "$t" 1) "
    samples[two_$t]+="$(ours "$t" 2) "
  done
done
declare -A label=(
  [classify]="BiGRU + additive classifier training, texts/s (reference_tasks.py classify"
  [vit]="ViT training, 28x28 Fashion-MNIST, images/s (reference_tasks.py vit"
  [caption]="captioner training, 48x48 scenes, images/s (bench/reference_captioner.py"
  [forecast]="forecaster training, windows/s (bench/reference_forecaster.py"
)
declare -A target=([classify]=2.5 [vit]=2.5 [caption]=1.5 [forecast]=1.5)
for t in "${tasks[@]}"; do
  r=$(echo "${samples[ref_$t]}" | median); a=$(echo "${samples[one_$t]}" | median)
  echo "| ${label[$t]} $r) | $a ($(ratio "$a" "$r")x) | >= ${target[$t]}x |"
done
for t in "${tasks[@]}"; do
  a=$(echo "${samples[one_$t]}" | median); b=$(echo "${samples[two_$t]}" | median)
  echo "| ${label[$t]%% (*}: 1 thread / 2 threads | $a / $b ($(ratio "$b" "$a")x) | >= 1.7x |"
done
