#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
attnlab_install_dependencies
attnlab_install_npm_packages
# CI sets ATTNLAB_WARNINGS_AS_ERRORS=ON (.ci/run): a new compiler warning fails the build.
attnlab_build -DBUILD_TESTING=ON -DATTNLAB_WARNINGS_AS_ERRORS="${ATTNLAB_WARNINGS_AS_ERRORS:-OFF}"
cd "$ATTNLAB_BUILD"
start=$(date +%s)
ctest --output-on-failure -j 2 --timeout 1200
echo "test suite wall time: $(( $(date +%s) - start )) s"
