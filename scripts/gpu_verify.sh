#!/usr/bin/env bash
# Builds, tests and exercises gpubench on a GPU node in one go and leaves the results in OUTDIR: the check we
# run on real hardware before calling a GPU feature done.
#   scripts/gpu_verify.sh OUTDIR [RUNS]    RUNS quick-suite runs (default 1; 3 to make a baseline)
# OUTDIR gets: verify.log (everything printed), ctest.log, run1..N.json, doctor.json, stress.json, acceptance.json.
set -uo pipefail
out="${1:?usage: gpu_verify.sh OUTDIR [RUNS]}"
runs="${2:-1}"
mkdir -p "$out"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on shared hosts
logs="$(mktemp -d)"
exec > >(tee "$out/verify.log") 2>&1

step() { printf '\n== %s (%s s)\n' "$*" "$SECONDS"; }

step "nvidia-smi"; nvidia-smi --query-gpu=index,name,pcie.link.gen.current,pcie.link.width.current,temperature.gpu,power.draw --format=csv
step "build"
CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90-real}" ./scripts/setup.sh >"$logs/setup.log" 2>&1 || { tail -40 "$logs/setup.log"; exit 1; }
step "ctest"
ctest --test-dir build --output-on-failure -j 2 >"$out/ctest.log" 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Exception" "$out/ctest.log"
step "env"; ./build/gpubench env
step "doctor"; ./build/gpubench doctor --json >"$out/doctor.json"; echo "exit $?"
for i in $(seq 1 "$runs"); do
  step "quick suite run $i"
  ./build/gpubench run --suite quick -o "$out/run$i.json" --log-dir "$logs/run$i" 2>&1 | tail -60
  echo "exit ${PIPESTATUS[0]}"
done
step "interrupted run keeps what finished"
timeout -s INT 20 ./build/gpubench run --suite quick -o "$logs/interrupted.json" --log-dir "$logs/interrupted" >/dev/null 2>&1
python3 -c "import json; d=json.load(open('$logs/interrupted.json')); print('interrupted:', d['run']['interrupted'], 'metrics:', len(d['metrics']))"
if command -v mpirun >/dev/null && [ -x build/gpubench-mpi ] && [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
  step "MPI all-reduce, Ring/Simple"
  mpirun --allow-run-as-root -np 2 -x NCCL_ALGO=Ring -x NCCL_PROTO=Simple -x NCCL_NVLS_ENABLE=0 \
    ./build/gpubench-mpi --suite quick -o "$logs/mpi.json" 2>&1 | tail -5
  ./build/gpubench compare "$out/run1.json" "$logs/mpi.json" --filter 'ring/simple/(1GiB|4GiB)' 2>&1 | tail -8
fi
step "stress 20 s"; ./build/gpubench stress --duration 20s -o "$out/stress.json" 2>/dev/null | tail -12
step "acceptance"; ./build/gpubench acceptance --json "$out/acceptance.json" -o "$logs/acceptance-results.json" 2>&1 | tail -25
step "done"
