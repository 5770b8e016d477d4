#!/usr/bin/env bash
# The GUI soak test: the main window cycles through every task of the window in turn (the task
# registry's, in Task box order; 2 minutes each by default) for MINUTES (default 30): each phase
# starts one of the task's lessons or switches task and presses Start, a lesson switch half-way, the
# task's first Watch view used every second and a figure exported every minute; prints per task what was
# asked, answered, exported and trained, the resident-memory slopes and the event-loop gaps
# (docs/reliability.md, "Long runs"). Not part of the test suite.
#   ./bench/run-soak.sh [MINUTES] [--phase-minutes P] [--translation-only] [--no-teardown]
# --translation-only is the original soak: GRU + additive on toy-en-fr for the whole run.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
minutes="${1:-30}"
shift || true
attnlab_install_dependencies
attnlab_build >/dev/null
out="$ATTNLAB_BUILD/soak"
rm -rf "$out"
run=("$ATTNLAB_BUILD/bench/attnlab-soak" --minutes "$minutes" --out "$out" "$@")
if [ -n "${DISPLAY:-}" ]; then
  "${run[@]}"
else
  xvfb-run -a -s "-screen 0 1400x900x24" "${run[@]}"
fi
