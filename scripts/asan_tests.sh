#!/usr/bin/env bash
# The CPU tests under AddressSanitizer and UndefinedBehaviorSanitizer (CMake presets "asan"): the readers,
# writers, runner and verdicts that take files and arguments from other machines and people (not the fleet tests,
# which try the scripts on a real Slurm and node_exporter, with the programs the main build makes). Run after
# scripts/setup.sh, which installs what it needs (and, where the system's CMake is older than 3.24, CMake from
# PyPI under build/_deps/cmake). Builds into build-asan/; CI runs it after the README's test line.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo}"
cmake_bin="$( (find build/_deps/cmake -path '*/cmake/data/bin/cmake' -type f 2>/dev/null || true) | head -1)"
cmake_bin="${cmake_bin:-cmake}"
ctest_bin="$(dirname "$(command -v "${cmake_bin}")")/ctest"
mkdir -p build-asan
"${cmake_bin}" --preset asan -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" >build-asan/configure.log 2>&1 ||
  { cat build-asan/configure.log >&2; exit 1; }
"${cmake_bin}" --build --preset asan --parallel "$(nproc)"
"${ctest_bin}" --preset asan
