#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
attnlab_install_dependencies
attnlab_build -DBUILD_TESTING=ON
cd "$ATTNLAB_BUILD"
start=$(date +%s)
ctest --output-on-failure -j 2 --timeout 1200
echo "test suite wall time: $(( $(date +%s) - start )) s"
