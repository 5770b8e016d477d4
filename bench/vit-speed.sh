#!/usr/bin/env bash
# Vision Transformer training speed side by side with the PyTorch reference trainer
# (reference_tasks.py vit, from the folder SHARED_BENCH names): the same model (4x4 patches,
# d_model 64, 4 heads, 3 pre-norm layers with GELU and feed-forward 256, dropout 0.1, [CLS],
# learned positions, a final LayerNorm and a linear head; Adam 1e-3, clip 1, batch 32, one
# thread) on the same images: the first IMAGES (default 3000) Fashion-MNIST training images
# written as 8-bit grey PNGs by `attnlab-cli datasets --write fashion-mnist`. Prints images/s
# for each and the ratio, the median of ROUNDS runs. A figure, not a test.
#   ./bench/vit-speed.sh            # ~3 minutes on 2 cores
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
SHARED_BENCH="${SHARED_BENCH:-$ATTNLAB_ROOT/../shared/bench}"
ROUNDS="${ROUNDS:-3}"
IMAGES="${IMAGES:-3000}"
cli="${ATTNLAB_CLI:-$ATTNLAB_BUILD/app/attnlab-cli}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Same BLAS kernels and one thread on both sides (see run-benchmarks.sh).
if grep -q avx2 /proc/cpuinfo && grep -q fma /proc/cpuinfo; then export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"; fi
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
"$cli" datasets --write fashion-mnist --size "$IMAGES" --out "$work/images" 2>/dev/null

ours() {
  "$cli" train --task image-classify --images "$work/images" --channels 1 --image-size 28 --arch vit --patch 4 \
    --hidden 64 --heads 4 --layers 3 --dropout 0.1 --batch 32 --lr 0.001 --epochs 1 --val-fraction 0.01 --threads 1 \
    --out "$work/m.safetensors" 2>/dev/null | sed -n 's/.*"images_per_sec":\([0-9.]*\).*/\1/p' | tail -1
}
ref() {
  /usr/bin/python3 "$SHARED_BENCH/reference_tasks.py" vit "$work/images" --hidden 64 --heads 4 --layers 3 --patch 4 \
    --batch 32 --epochs 1 --threads 1 | sed -n 's/.*items_per_sec=\([0-9.]*\).*/\1/p'
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
echo "ViT training, images/s: AttnLab $our_speed, PyTorch reference $ref_speed," \
     "ratio $(awk -v a="$our_speed" -v b="$ref_speed" 'BEGIN {printf "%.2f", a / b}')x (rounds: $ROUNDS; samples: ours $our_samples/ reference $ref_samples)"
