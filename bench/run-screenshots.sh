#!/usr/bin/env bash
# Regenerates the README's screenshots (docs/screenshots/) from real training runs: the heads and
# alignment lessons, then every teaching view; then the runs of their own: the heads (ablation,
# lines, importance), the Images task, the long-range experiment and the other tasks' head
# importance. Takes about twenty minutes on two cores.
#   ./bench/run-screenshots.sh [OUTPUT_DIR]
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
out="${1:-$ATTNLAB_ROOT/docs/screenshots}"
attnlab_install_dependencies
attnlab_build >/dev/null
shoot() {
  local run=("$ATTNLAB_BUILD/bench/attnlab-screenshots" "$out" "$@")
  if [ -n "${DISPLAY:-}" ]; then
    "${run[@]}"
  else
    xvfb-run -a -s "-screen 0 1400x900x24" "${run[@]}"
  fi
}
status=0
shoot || status=1
for only in heads image long-range importance decoding guided; do shoot --only "$only" || status=1; done
exit $status
