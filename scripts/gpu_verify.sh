#!/usr/bin/env bash
# Builds gpubench on a GPU node and exercises it, leaving the results in OUTDIR: the check we run on real
# hardware before calling a GPU feature done. Two modes, each sized to fit one ten-minute device call:
#   scripts/gpu_verify.sh OUTDIR check            build, every test, env, doctor, Ctrl-C, MPI, stress, acceptance
#   scripts/gpu_verify.sh OUTDIR runs N [ARGS]    N quick-suite runs (3 make a baseline); ARGS go to `gpubench run`
# OUTDIR gets verify.log (everything printed) and, by mode, ctest.log, doctor.json, stress.json,
# acceptance.json, or run1..N.json.
set -uo pipefail
out="${1:?usage: gpu_verify.sh OUTDIR check|runs N [run args...]}"
mode="${2:-check}"
mkdir -p "$out"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on shared hosts
logs="$(mktemp -d)"
exec > >(tee "$out/verify.log") 2>&1

step() { printf '\n== %s (%s s)\n' "$*" "$SECONDS"; }

step "nvidia-smi"
nvidia-smi --query-gpu=index,name,pcie.link.gen.current,pcie.link.width.current,temperature.gpu,power.draw --format=csv
step "build"
CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90-real}" ./scripts/setup.sh >"$logs/setup.log" 2>&1 || { tail -40 "$logs/setup.log"; exit 1; }

case "$mode" in
  check)
    step "ctest (one test at a time: the stress tests take most of the GPU's memory)"
    ctest --test-dir build --output-on-failure >"$out/ctest.log" 2>&1
    grep -E "tests passed|tests failed|\*\*\*Failed|Exception" "$out/ctest.log"
    step "env"; ./build/gpubench env
    step "doctor"; ./build/gpubench doctor --json >"$out/doctor.json"; echo "exit $?"
    step "interrupted run keeps what finished"
    timeout -s INT 20 ./build/gpubench run --suite quick -o "$logs/interrupted.json" --log-dir "$logs/interrupted" >/dev/null 2>&1
    python3 -c "import json; d=json.load(open('$logs/interrupted.json')); print('interrupted:', d['run']['interrupted'], 'metrics:', len(d['metrics']))"
    if command -v mpirun >/dev/null && [ -x build/gpubench-mpi ] && [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
      step "MPI all-reduce, Ring/Simple, against the single-process mode"
      mpirun --allow-run-as-root -np 2 -x NCCL_ALGO=Ring -x NCCL_PROTO=Simple -x NCCL_NVLS_ENABLE=0 \
        ./build/gpubench-mpi --suite quick -o "$logs/mpi.json" 2>&1 | tail -5
      NCCL_ALGO=Ring NCCL_PROTO=Simple ./build/gpubench run --suite quick --filter 'nccl/allreduce/ring/simple/(1GiB|4GiB)' \
        -o "$logs/single.json" --log-dir "$logs/single" >/dev/null 2>&1
      ./build/gpubench compare "$logs/single.json" "$logs/mpi.json" --filter 'ring/simple/(1GiB|4GiB)' 2>&1 | tail -8
    fi
    step "stress 20 s"; ./build/gpubench stress --duration 20s -o "$out/stress.json" 2>/dev/null | tail -12
    step "acceptance"
    ./build/gpubench acceptance --json "$out/acceptance.json" -o "$logs/acceptance-results.json" 2>&1 | tail -25
    ;;
  runs)
    count="${3:?usage: gpu_verify.sh OUTDIR runs N [run args...]}"
    shift 3
    for i in $(seq 1 "$count"); do
      step "quick suite run $i $*"
      ./build/gpubench run --suite quick -o "$out/run$i.json" --log-dir "$logs/run$i" "$@" 2>&1 | tail -40
      echo "exit ${PIPESTATUS[0]}"
    done
    ;;
  *) echo "unknown mode '$mode' (check or runs)"; exit 2 ;;
esac
step "done"
