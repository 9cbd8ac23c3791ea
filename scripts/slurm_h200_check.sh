#!/usr/bin/env bash
# examples/slurm/acceptance.sbatch on a GPU node that reaches no package registry, end to end: a one-node Slurm
# started from the offline bundle (scripts/slurm_offline_bundle.sh, made beforehand on a machine with apt and carried
# as .slurm-bundle/), the node's GPUs declared as a GRES (gres.conf from /dev/nvidiaK), then the job submitted JOBS
# times (default 3) into one RESULTS folder, one after the other: each runs acceptance and gpubench-mpi (one rank a
# GPU); from the second on, check --fleet judges the runs kept so far (three give it a fleet median). Prints each
# job's output and its accounting line (sacct), checks that each result is where the script says, and stops the
# cluster. Builds nothing: it needs build/gpubench, build/gpubench-micro and build/gpubench-mpi, e.g.
#   CUDA_ARCHITECTURES=90-real GPUBENCH_BUILD_TARGETS="gpubench gpubench-micro gpubench-mpi" ./scripts/setup.sh
#
#   scripts/slurm_h200_check.sh OUTDIR [JOBS]
#
# A job is submitted only while it can end before BUDGET_S seconds (default 540) from the start, judged by the first.
# If the first job's gpubench-mpi step fails under `srun --mpi=pmix`, the later ones start it with mpirun inside the
# allocation (GPUBENCH_MPI_LAUNCHER=mpirun) and the output says so. OUTDIR gets slurm_check.log (everything
# printed), results.tar.gz (RESULTS and the jobs' output files) and cluster.tar.gz (the configuration and the
# daemons' logs). Exit: the worst job's exit code, 4 when a result is missing, 2 when something it needs is missing.
set -uo pipefail
out="${1:?usage: slurm_h200_check.sh OUTDIR [JOBS]}"
jobs="${2:-3}"
budget="${BUDGET_S:-540}"
mkdir -p "${out}"
out="$(cd "${out}" && pwd)"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo}" || exit 2
exec > >(tee "${out}/slurm_check.log") 2>&1
step() { printf '\n== %s (%s s)\n' "$*" "${SECONDS}"; }
export NCCL_NVLS_ENABLE=0

step "the machine"
grep PRETTY_NAME /etc/os-release; uname -r; nvidia-smi -L; find /dev -maxdepth 1 -name 'nvidia*' | sort | paste -sd ' '
(command -v mpirun && mpirun --version 2>&1 | head -1) || echo "no mpirun"
(ompi_info 2>/dev/null | grep -E "MCA (pmix|ess): " | paste -sd ';') || true
ldconfig -p | grep -E "libpmix|libmunge|libslurm" || echo "no PMIx, MUNGE or Slurm library installed"

for program in gpubench gpubench-micro gpubench-mpi; do
  [ -x "build/${program}" ] || { echo "build/${program} is missing: build it first (see this script's header)"; exit 2; }
done
[ -f .slurm-bundle/PACKAGES ] || { echo ".slurm-bundle is missing: make it with scripts/slurm_offline_bundle.sh and carry it"; exit 2; }

work="$(mktemp -d /tmp/gpubench-slurm-check.XXXXXX)"
cluster="${work}/cluster"
prefix="${work}/prefix"
results="${work}/results"
submit="${work}/jobs"
mkdir -p "${prefix}/bin" "${submit}"
# GPUBENCH_PREFIX/bin holds the built programs, as `cmake --install` would lay them out.
for program in gpubench gpubench-micro gpubench-mpi; do ln -s "${repo}/build/${program}" "${prefix}/bin/${program}"; done

# shellcheck disable=SC2317  # run by the EXIT trap
finish() {
  step "stop the cluster"
  scripts/slurm_local.sh stop "${cluster}"
  tar -C "${work}" -czf "${out}/results.tar.gz" results jobs 2>/dev/null
  tar -C "${work}" -czf "${out}/cluster.tar.gz" cluster/etc cluster/log 2>/dev/null
}
trap finish EXIT

step "a one-node Slurm from the bundle, the GPUs as a GRES"
scripts/slurm_local.sh start "${cluster}" --gpus auto --bundle .slurm-bundle || exit 1
# shellcheck disable=SC1091
. "${cluster}/env.sh"
cat "${cluster}/etc/gres.conf"
scontrol show node | grep -E "NodeName|Gres=|CfgTRES"
gpus="$(nvidia-smi -L | grep -c '^GPU ')"

worst=0
missing=0
first_seconds=0
launcher=srun
for i in $(seq 1 "${jobs}"); do
  if [ "${i}" -gt 1 ] && [ $((SECONDS + first_seconds)) -gt "${budget}" ]; then
    step "no time for job ${i} of ${jobs} (the first took ${first_seconds} s; budget ${budget} s)"
    break
  fi
  step "job ${i} of ${jobs}: sbatch --nodes=1 --gpus-per-node=${gpus} examples/slurm/acceptance.sbatch (gpubench-mpi by ${launcher})"
  started=${SECONDS}
  extra=()
  if [ "${launcher}" = mpirun ]; then
    extra=(--export="ALL,GPUBENCH_MPI_LAUNCHER=mpirun,OMPI_ALLOW_RUN_AS_ROOT=1,OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
  fi
  job="$(cd "${submit}" && GPUBENCH_PREFIX="${prefix}" RESULTS="${results}" \
         sbatch --wait --parsable --nodes=1 --gpus-per-node="${gpus}" "${extra[@]}" "${repo}/examples/slurm/acceptance.sbatch")"
  code=$?
  job="${job%%;*}"
  [ "${i}" -eq 1 ] && first_seconds=$((SECONDS - started))
  echo "sbatch --wait exit ${code}, $((SECONDS - started)) s"
  cat "${submit}/gpubench-acceptance-${job}.out"
  echo "-- sacct (JobID|JobName|Partition|NodeList|State|ExitCode|Start|End):"
  sacct-line "${job}"
  (( code > worst )) && worst=${code}

  # Each result where the script says.
  host="$(hostname)"
  for expected in "${results}/${host}/${job}-verdicts.json" "${results}/nccl-${job}.json"; do
    if [ -s "${expected}" ]; then echo "present: ${expected#"${work}/"}"; else echo "MISSING: ${expected#"${work}/"}"; missing=1; fi
  done
  echo "acceptance documents in RESULTS/${host}: $(find "${results}/${host}" -name '*-acceptance.json' | wc -l) (expected ${i})"
  [ "$(find "${results}/${host}" -name '*-acceptance.json' | wc -l)" -eq "${i}" ] || missing=1
  if [ "${i}" -eq 1 ] && [ "${launcher}" = srun ] && ! grep -q "collectives exit 0" "${submit}/gpubench-acceptance-${job}.out"; then
    echo "gpubench-mpi under srun --mpi=pmix failed: the next jobs start it with mpirun inside the allocation"
    launcher=mpirun
  fi
done

step "summary: worst job exit ${worst}; results $([ "${missing}" -eq 0 ] && echo "all where the script says" || echo "MISSING (above)")"
find "${results}" -type f | sed "s|^${work}/||" | sort
[ "${missing}" -eq 0 ] || exit 4
exit "${worst}"
