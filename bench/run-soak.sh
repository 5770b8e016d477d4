#!/usr/bin/env bash
# The GUI soak test: the main window trains toy-en-fr (GRU + additive) for MINUTES (default 30)
# while a translation is typed every second and a figure exported every minute; prints the
# resident-memory slope and the event-loop gaps. Not part of the test suite (it takes half an hour).
#   ./bench/run-soak.sh [MINUTES]
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
minutes="${1:-30}"
attnlab_install_dependencies
attnlab_build >/dev/null
out="$ATTNLAB_BUILD/soak"
rm -rf "$out"
run=("$ATTNLAB_BUILD/bench/attnlab-soak" --minutes "$minutes" --out "$out")
if [ -n "${DISPLAY:-}" ]; then
  "${run[@]}"
else
  xvfb-run -a -s "-screen 0 1400x900x24" "${run[@]}"
fi
