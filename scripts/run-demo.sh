#!/usr/bin/env bash
# Installs what is missing, builds, and starts AttnLab on a built-in demo. Without a
# display it says so and runs a headless demo with attnlab-cli instead.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
attnlab_install_dependencies
attnlab_build -DBUILD_TESTING=OFF
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$ATTNLAB_BUILD/app/attnlab" --demo "$@"
fi
echo "No display found: running the headless demo (attnlab-cli) instead."
cli="$ATTNLAB_BUILD/app/attnlab-cli"
model="${TMPDIR:-/tmp}/attnlab-demo.safetensors"
"$cli" train --dataset toy-en-zh --arch gru --attention additive --epochs 8 --seed 1 --out "$model"
echo "Translating \"tom chases jerry\":"
"$cli" translate --model "$model" "tom chases jerry"
