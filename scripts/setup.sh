#!/usr/bin/env bash
# Sets up a fresh Debian 12 / Ubuntu 22.04 / Ubuntu 24.04 machine that has the CUDA toolkit: installs every
# missing package, then configures and builds gpubench into build/. Idempotent; quick when nothing is missing.
#
#   scripts/setup.sh                 install what is missing, configure, build: for the GPUs nvidia-smi lists
#                                    here, or for every data-centre GPU generation on a machine without one
#   scripts/setup.sh --no-build      install only
#   CUDA_ARCHITECTURES="90-real" scripts/setup.sh    build for these architectures, GPUs or not
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${repo}/build"
nvml_wheel_version_cu13="13.0.87"   # matches CUDA 13.0; only the header is used
nvml_wheel_version_cu12="12.9.79"
kubernetes_validate_version="1.37.0"  # Job schemas of Kubernetes 1.30 to 1.37, as tests/fleet pins them
do_build=1

for arg in "$@"; do
  case "$arg" in
    --no-build) do_build=0 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

# --- the CUDA toolkit is the one thing this script does not install -------------------------------------
if ! command -v nvcc >/dev/null 2>&1; then
  for candidate in /usr/local/cuda/bin /usr/local/cuda-13/bin /usr/local/cuda-12/bin; do
    if [ -x "${candidate}/nvcc" ]; then export PATH="${candidate}:${PATH}"; break; fi
  done
fi
command -v nvcc >/dev/null 2>&1 || die "nvcc not found. Install the CUDA Toolkit (12.x or 13.x) from NVIDIA and put its bin/ on PATH (usually /usr/local/cuda/bin); this script installs everything else."
cuda_root="$(cd "$(dirname "$(command -v nvcc)")/.." && pwd)"
cuda_major="$(nvcc --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')"
say "CUDA ${cuda_major} at ${cuda_root}"

# --- Debian packages: each is installed only when what it provides is not already there -------------------
# (probing for the file rather than asking dpkg also accepts a library built from source into /usr/local,
# and lets the script run on a machine without network access when everything is already there)
have_header() {
  local dir
  for dir in /usr/include /usr/local/include "${cuda_root}/include"; do [ -e "${dir}/$1" ] && return 0; done
  return 1
}
missing=()
command -v cmake   >/dev/null 2>&1 || missing+=(cmake)
command -v ninja   >/dev/null 2>&1 || missing+=(ninja-build)
command -v g++     >/dev/null 2>&1 || missing+=(g++)
command -v git     >/dev/null 2>&1 || missing+=(git)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
have_header benchmark/benchmark.h || missing+=(libbenchmark-dev)
have_header gtest/gtest.h         || missing+=(libgtest-dev)
have_header nlohmann/json.hpp     || missing+=(nlohmann-json3-dev)
have_header CLI/CLI.hpp           || missing+=(libcli11-dev)
# Prometheus's own parser reads `check --prometheus` files back in the tests (tests/cli/check_outputs_test.py).
python3 -c 'import prometheus_client' >/dev/null 2>&1 || missing+=(python3-prometheus-client)
# MPI builds gpubench-mpi, the one-process-per-GPU mode used across nodes (CMake skips it without MPI).
# A compile probe, since an mpicxx wrapper can outlive the headers it points at.
printf '#include <mpi.h>\nint main() { return 0; }\n' | mpicxx -x c++ - -o /dev/null >/dev/null 2>&1 || missing+=(libopenmpi-dev)
if [ "${#missing[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]} and no apt-get to install them; install them by hand"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  say "installing ${missing[*]}"
  ${sudo_cmd} apt-get update -qq
  DEBIAN_FRONTEND=noninteractive ${sudo_cmd} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian's package serves Debian's python3; a python3 of another origin first on PATH (pyenv, a virtual environment),
# which is the one the tests run under, takes the module from PyPI.
if ! python3 -c 'import prometheus_client' >/dev/null 2>&1; then
  say "installing prometheus_client from PyPI for $(command -v python3), which does not see Debian's"
  python3 -m pip install -q prometheus_client
fi

# The fleet examples' tests run them on the real thing (tests/fleet): a one-node Slurm (scripts/slurm_local.sh; the
# tests start and stop its daemons, this script never does), Prometheus's node_exporter reading gpubench's files, and
# the Kubernetes Job against the JSON schemas of real Kubernetes releases that kubernetes-validate carries (offline
# once installed). Best effort, like Chromium below: a machine that reaches no registry (a lent GPU node) still
# builds, and those tests say they were skipped and why, except in CI, where they fail.
fleet_packages=()
{ [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ]; } || fleet_packages+=(slurmctld slurmd)
command -v sbatch >/dev/null 2>&1 || fleet_packages+=(slurm-client)
[ -x /usr/sbin/munged ] || fleet_packages+=(munge)
command -v prometheus-node-exporter >/dev/null 2>&1 || command -v node_exporter >/dev/null 2>&1 || fleet_packages+=(prometheus-node-exporter)
if [ "${#fleet_packages[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  say "installing ${fleet_packages[*]} (for tests/fleet)"
  { ${sudo_cmd} apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo_cmd} apt-get install -y -qq --no-install-recommends "${fleet_packages[@]}" >/dev/null; } ||
    say "${fleet_packages[*]} could not be installed; the fleet tests that need them are skipped here"
fi
if ! python3 -c 'import kubernetes_validate' >/dev/null 2>&1; then
  say "installing kubernetes-validate from PyPI for $(command -v python3) (for tests/fleet)"
  python3 -m pip install -q --retries 1 --timeout 20 "kubernetes-validate==${kubernetes_validate_version}" ||
    say "kubernetes-validate could not be installed; the Kubernetes schema test is skipped here"
fi

# `gpubench report`'s test draws the page in headless Chromium. It may not be had (Ubuntu has Chromium as a snap
# only): then the browser test reports itself as skipped, except in CI.
report_packages=()
command -v chromium >/dev/null 2>&1 || report_packages+=(chromium)
if [ "${#report_packages[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  ${sudo_cmd} apt-get update -qq
  for package in "${report_packages[@]}"; do
    say "installing ${package}"
    DEBIAN_FRONTEND=noninteractive ${sudo_cmd} apt-get install -y -qq --no-install-recommends "${package}" >/dev/null ||
      say "${package} could not be installed; the report's browser test does without it (above)"
  done
fi

# CMake 3.24 or newer: Ubuntu 22.04 ships 3.22, so take it from PyPI there.
cmake_bin="cmake"
cmake_version="$(cmake --version | sed -n 's/cmake version \([0-9]*\.[0-9]*\).*/\1/p')"
if [ "$(printf '%s\n3.24\n' "$cmake_version" | sort -V | head -1)" != "3.24" ]; then
  # The program itself, not pip's bin/cmake wrapper, which needs the prefix on Python's path to start.
  find_pip_cmake() { find "${build_dir}/_deps/cmake" -path '*/cmake/data/bin/cmake' -type f 2>/dev/null | head -1; }
  cmake_bin="$(find_pip_cmake)"
  if [ -z "${cmake_bin}" ]; then
    say "CMake ${cmake_version} is older than 3.24; installing CMake from PyPI into build/_deps/cmake"
    python3 -m pip install -q --prefix "${build_dir}/_deps/cmake" cmake
    cmake_bin="$(find_pip_cmake)"
  fi
  [ -n "${cmake_bin}" ] || die "CMake from PyPI installed no cmake program under build/_deps/cmake"
fi

# NCCL comes with the toolkit or as libnccl-dev from NVIDIA's repository, which Debian does not carry.
if [ ! -f "${cuda_root}/include/nccl.h" ] && [ ! -f /usr/include/nccl.h ] && [ ! -f /usr/local/include/nccl.h ] \
   && [ -z "${NCCL_ROOT:-}" ]; then
  die "NCCL not found. Install libnccl-dev from NVIDIA's CUDA repository (or set NCCL_ROOT to an NCCL install)."
fi

# nvml.h: the toolkit usually ships it; where it does not, unpack NVIDIA's nvidia-nvml-dev wheel (a header only).
if [ ! -f "${cuda_root}/include/nvml.h" ] && [ ! -f "${cuda_root}/targets/x86_64-linux/include/nvml.h" ] \
   && [ -z "$(find "${build_dir}/_deps/nvml" -name nvml.h 2>/dev/null | head -1)" ]; then
  if [ "${cuda_major}" -ge 13 ]; then wheel="nvidia-nvml-dev==${nvml_wheel_version_cu13}"; else wheel="nvidia-nvml-dev-cu12==${nvml_wheel_version_cu12}"; fi
  say "nvml.h not in the toolkit; installing ${wheel} into build/_deps/nvml"
  download="$(mktemp -d)"
  python3 -m pip download -q --no-deps --only-binary=:all: -d "${download}" "${wheel}"
  mkdir -p "${build_dir}/_deps/nvml"
  python3 -m zipfile -e "${download}"/*.whl "${build_dir}/_deps/nvml"
  rm -rf "${download}"
fi

[ "$do_build" -eq 1 ] || { say "packages ready"; exit 0; }

# --- configure and build --------------------------------------------------------------------------------
configure_args=(-S "${repo}" -B "${build_dir}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$(command -v nvcc)")
# Which GPUs to build for: CUDA_ARCHITECTURES when set; else the GPUs of this machine (CMake's "native": one
# architecture instead of seven, so the device code compiles several times faster); else, with no GPU to ask,
# every data-centre generation, the default of CMakeLists.txt (the cache entry is removed, so that a build
# folder configured for native before does not keep it).
gpus=""  # "2 x NVIDIA H200"; nvidia-smi prints its own failures on stdout, so only its success counts
if names="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null)" && [ -n "${names}" ]; then
  gpus="$(printf '%s\n' "${names}" | sort | uniq -c | sed 's/^ *\([0-9]*\) /\1 x /' | paste -sd ';' | sed 's/;/; /g')"
fi
if [ -n "${CUDA_ARCHITECTURES:-}" ]; then
  configure_args+=("-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}")
  architectures="${CUDA_ARCHITECTURES} (CUDA_ARCHITECTURES)"
elif [ -n "${gpus}" ]; then
  configure_args+=("-DCMAKE_CUDA_ARCHITECTURES=native")
  architectures="this machine's GPUs, ${gpus} (CMake's native)"
else
  configure_args+=("-UCMAKE_CUDA_ARCHITECTURES")
  architectures="every data-centre GPU generation (no GPU found by nvidia-smi; CUDA_ARCHITECTURES=90-real picks one)"
fi
say "configuring for ${architectures}"
mkdir -p "${build_dir}"
"${cmake_bin}" "${configure_args[@]}" >"${build_dir}/configure.log" 2>&1 || { cat "${build_dir}/configure.log" >&2; die "configuration failed (log above)"; }
say "building with $(nproc) jobs"
build_started=${SECONDS}
# GPUBENCH_BUILD_TARGETS="gpubench gpubench-micro" builds only those (a device call that needs no tests).
read -r -a targets <<<"${GPUBENCH_BUILD_TARGETS:-}"
"${cmake_bin}" --build "${build_dir}" --parallel "$(nproc)" ${targets[@]+--target "${targets[@]}"}
build_seconds=$((SECONDS - build_started))
built=""
for program in gpubench gpubench-micro gpubench-mpi; do
  if [ -x "${build_dir}/${program}" ]; then built="${built:+${built}, }${build_dir}/${program}"; fi
done
say "built in $((build_seconds / 60)) min $((build_seconds % 60)) s: ${built}"
