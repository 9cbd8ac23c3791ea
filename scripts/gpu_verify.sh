#!/usr/bin/env bash
# Builds, tests and benchmarks gpubench on a GPU node in one go and leaves every log in OUTDIR: the check we
# run on real hardware before calling a GPU feature done.   scripts/gpu_verify.sh OUTDIR [gpubench run args...]
set -uo pipefail
out="${1:?usage: gpu_verify.sh OUTDIR [run args...]}"
shift
mkdir -p "$out"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on shared hosts

nvidia-smi >"$out/nvidia-smi.txt" 2>&1
start=$(date +%s)
CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90-real}" ./scripts/setup.sh >"$out/setup.log" 2>&1 || { tail -40 "$out/setup.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
ctest --test-dir build --output-on-failure -j 4 >"$out/ctest.log" 2>&1
echo "ctest: exit $?; $(grep -E 'tests passed|tests failed' "$out/ctest.log")"
grep -E "Failed|\*\*\*" "$out/ctest.log" | head -20
./build/gpubench env >"$out/env.txt" 2>&1
./build/gpubench run --suite quick -o "$out/results.json" "$@" >"$out/run.log" 2>&1
echo "run: exit $?"
cp "$out/results.json.logs/"*.json "$out/" 2>/dev/null
cat "$out/env.txt"
tail -40 "$out/run.log"
