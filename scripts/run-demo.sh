#!/usr/bin/env bash
# Installs what is missing, builds, and starts AttnLab on a built-in demo. Without a
# display it says so and runs a headless demo with attnlab-cli instead.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
attnlab_install_dependencies
# Only what the demo runs: the window and the CLI (run-tests.sh builds the tests and the rest).
ATTNLAB_BUILD_TARGETS="attnlab attnlab-cli" attnlab_build
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$ATTNLAB_BUILD/app/attnlab" --demo "$@"
fi
echo "No display found: running the headless demo (attnlab-cli) instead."
cli="$ATTNLAB_BUILD/app/attnlab-cli"
model="${TMPDIR:-/tmp}/attnlab-demo.safetensors"
weights="${TMPDIR:-/tmp}/attnlab-demo-attention.csv"
# The classic example: GRU + additive attention on toy English->Chinese, trained on Chinese
# words. A bidirectional encoder and no dropout give each word's row its English word.
"$cli" train --dataset toy-en-zh --arch gru --attention additive --bidirectional --dropout 0 \
  --size 5000 --epochs 8 --seed 1 --out "$model"
echo "Translating \"tom chases jerry\":"
"$cli" translate --model "$model" "tom chases jerry"
echo "Attention (a row per Chinese word, a column per English token):"
"$cli" render --model "$model" --sentence "tom chases jerry" --out "$weights"
awk -F, '{ printf "%-8s", $1; for (i = 2; i <= NF; i++) printf (NR == 1 ? "%8s" : "%8.2f"), $i; print "" }' "$weights"
