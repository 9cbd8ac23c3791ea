#!/usr/bin/env bash
# A one-node Slurm cluster on this machine (slurmctld, slurmd and munged on 127.0.0.1), for trying
# examples/slurm/acceptance.sbatch on a real Slurm: its configuration, key, state, logs and sockets all live in DIR,
# nothing goes to /etc or /run, and nothing is started but these three daemons (on cgroup v2 without systemd, root
# also makes /sys/fs/cgroup/system.slice for slurmd's scope: cgroup_slice below).
#
#   scripts/slurm_local.sh start DIR [--gpus N|auto] [--bundle BUNDLE]
#   scripts/slurm_local.sh stop DIR
#   . DIR/env.sh            # then sbatch, squeue, scontrol, sacct talk to this cluster
#
# --gpus N      declare N GPUs as a GRES (gres.conf `Name=gpu`): with their /dev/nvidiaK files where those exist,
#               or, on a machine with none, one stand-in (--gpus 1: File=/dev/null), so that a job asking for
#               --gpus-per-node=1 is scheduled and gpubench finds no GPU. auto: as many as `nvidia-smi -L` lists
#               (0 without nvidia-smi). Default 0.
# --bundle B    run Slurm and MUNGE from B, a folder made by scripts/slurm_offline_bundle.sh, instead of the
#               installed packages (for a machine that cannot install them).
# Without --bundle: Debian's slurmctld, slurmd, slurm-client and munge (scripts/setup.sh installs them).
#
# Job accounting: there is no slurmdbd; finished jobs are written by jobcomp/filetxt to DIR/log/jobcomp.txt, which
# `sacct --completion` (env.sh's alias `sacct-line JOBID`) reads. Jobs run as the user who submits them, so the
# daemons must run as root (slurmd starts jobs as their owner); as another user only that user's jobs can run.
set -euo pipefail

usage() { sed -n '5,7p' "$0" >&2; exit 2; }
say() { printf '[slurm_local] %s\n' "$*"; }
die() { printf '[slurm_local] error: %s\n' "$*" >&2; exit 1; }

[ $# -ge 2 ] || usage
action="$1"
dir="$2"
shift 2
gpus=0
bundle=""
while [ $# -gt 0 ]; do
  case "$1" in
    --gpus) gpus="${2:?--gpus needs N or auto}"; shift 2 ;;
    --bundle) bundle="${2:?--bundle needs a folder}"; shift 2 ;;
    *) usage ;;
  esac
done
mkdir -p "${dir}"
dir="$(cd "${dir}" && pwd)"

# The pids of the daemons this script started in DIR, newest last.
daemon_pids() {
  local f
  for f in "${dir}/run/slurmd.pid" "${dir}/run/slurmctld.pid" "${dir}/run/munged.pid"; do
    [ -s "$f" ] && cat "$f"
  done
  return 0
}

stop() {
  local pid
  if [ -f "${dir}/env.sh" ]; then
    # Jobs still running are cancelled first, so that no job outlives its cluster.
    # shellcheck disable=SC1091
    (. "${dir}/env.sh" && scancel --quiet --full --state=RUNNING,PENDING --user="$(id -un)" 2>/dev/null) || true
  fi
  for pid in $(daemon_pids); do
    kill -TERM "${pid}" 2>/dev/null || continue
    for _ in $(seq 1 100); do kill -0 "${pid}" 2>/dev/null || break; sleep 0.1; done
    kill -0 "${pid}" 2>/dev/null && { say "pid ${pid} still running after 10 s: KILL"; kill -KILL "${pid}" 2>/dev/null || true; }
  done
  rm -f "${dir}/run/"*.pid
  # The slice this script made (cgroup_slice below), with the cgroups slurmd made in it, deepest first; a cgroup
  # that still holds a process stays.
  if [ -f "${dir}/run/made_cgroup_slice" ]; then
    find /sys/fs/cgroup/system.slice -depth -type d -exec rmdir {} + 2>/dev/null || true
    rm -f "${dir}/run/made_cgroup_slice"
  fi
  say "stopped the cluster in ${dir}"
}

if [ "${action}" = stop ]; then stop; exit 0; fi
[ "${action}" = start ] || usage
[ -z "$(daemon_pids)" ] || die "${dir} already has a cluster (pids $(daemon_pids | paste -sd ' ')): stop it first"

# --- where the programs are ----------------------------------------------------------------------------------
if [ -n "${bundle}" ]; then
  bundle="$(cd "${bundle}" && pwd)" || die "no bundle folder ${bundle}"
  root="${bundle}/root"
  [ -x "${root}/usr/sbin/slurmctld" ] || die "${bundle} is not a bundle of scripts/slurm_offline_bundle.sh (no root/usr/sbin/slurmctld)"
  bin="${root}/usr/bin"
  slurmctld="${root}/usr/sbin/slurmctld"
  slurmd="${root}/usr/sbin/slurmd"
  slurmstepd="${root}/usr/sbin/slurmstepd"
  munged="${root}/usr/sbin/munged"
  plugins="${root}/usr/lib/x86_64-linux-gnu/slurm-wlm"
  # The bundle's mpi/pmix plugin opens the bundle's PMIx (Debian's, the version it was built with) through this
  # fixed path, which its copy names in place of /usr/lib/x86_64-linux-gnu/pmix2/lib (slurm_offline_bundle.sh).
  pmix_link="$(cat "${bundle}/pmix-link")"
  if [ -e "${pmix_link}" ] && [ ! -L "${pmix_link}" ]; then die "${pmix_link} exists and is not a link: cannot point it at the bundle's PMIx"; fi
  ln -sfn "${root}/usr/lib/x86_64-linux-gnu/pmix2/lib" "${pmix_link}"
  # PMIx's own components, from the bundle rather than its compiled-in folder: for the daemons (slurmstepd inherits
  # slurmd's environment), not written to env.sh, so that jobs' own MPI keeps the machine's PMIx and components.
  export PMIX_MCA_mca_base_component_path="${root}/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix"
  export PMIX_PKGLIBDIR="${PMIX_MCA_mca_base_component_path}" PMIX_LIBDIR="${root}/usr/lib/x86_64-linux-gnu/pmix2/lib"
else
  bin=/usr/bin
  slurmctld=/usr/sbin/slurmctld
  slurmd=/usr/sbin/slurmd
  slurmstepd=/usr/sbin/slurmstepd
  munged=/usr/sbin/munged
  plugins=/usr/lib/x86_64-linux-gnu/slurm-wlm
  for program in "${slurmctld}" "${slurmd}" "${slurmstepd}" "${munged}" "${bin}/sbatch"; do
    [ -x "${program}" ] || die "${program} is missing: install Debian's slurmctld, slurmd, slurm-client and munge (scripts/setup.sh does), or give --bundle"
  done
fi

# --- configuration --------------------------------------------------------------------------------------------
mkdir -p "${dir}/etc" "${dir}/munge" "${dir}/state/ctld" "${dir}/state/d" "${dir}/log" "${dir}/run"
chmod 700 "${dir}/munge"
node="$(hostname -s)"
user="$(id -un)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ctld_port="$(free_port)"
slurmd_port="$(free_port)"
while [ "${slurmd_port}" = "${ctld_port}" ]; do slurmd_port="$(free_port)"; done

if [ "${gpus}" = auto ]; then
  gpus="$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU ' || true)"
fi
case "${gpus}" in ''|*[!0-9]*) die "--gpus takes a count or auto, not '${gpus}'" ;; esac

gres_line=""
: >"${dir}/etc/gres.conf"
if [ "${gpus}" -gt 0 ]; then
  gres_line=" Gres=gpu:${gpus}"
  files=()
  for ((k = 0; k < gpus; k++)); do [ -e "/dev/nvidia${k}" ] && files+=("/dev/nvidia${k}"); done
  if [ "${#files[@]}" -eq "${gpus}" ]; then
    # One line per device: Slurm sets CUDA_VISIBLE_DEVICES from the ones it gives a job.
    for f in "${files[@]}"; do echo "NodeName=${node} Name=gpu File=${f}" >>"${dir}/etc/gres.conf"; done
  elif [ "${gpus}" -eq 1 ]; then
    # No GPU here: Slurm 22.05's gres/gpu drops a GPU declared as a count alone (the node then registers with
    # none and is set INVAL), so the stand-in is a device file that exists everywhere.
    say "no /dev/nvidia0: declaring one stand-in GPU (File=/dev/null); gpubench will find no GPU"
    echo "NodeName=${node} Name=gpu File=/dev/null" >>"${dir}/etc/gres.conf"
  else
    die "--gpus ${gpus}: only ${#files[@]} of /dev/nvidia0..$((gpus - 1)) exist (without GPUs, --gpus 1 declares one stand-in)"
  fi
fi

cpus="$(nproc)"
cat >"${dir}/etc/slurm.conf" <<EOF
# Written by scripts/slurm_local.sh: one node, ${node}, on 127.0.0.1; everything under ${dir}.
ClusterName=gpubench-local
SlurmctldHost=${node}(127.0.0.1)
SlurmctldPort=${ctld_port}
SlurmdPort=${slurmd_port}
SlurmUser=${user}
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${dir}/munge/munge.socket
PluginDir=${plugins}
StateSaveLocation=${dir}/state/ctld
SlurmdSpoolDir=${dir}/state/d
SlurmctldPidFile=${dir}/run/slurmctld.pid
SlurmdPidFile=${dir}/run/slurmd.pid
SlurmctldLogFile=${dir}/log/slurmctld.log
SlurmdLogFile=${dir}/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=${dir}/log/jobcomp.txt
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=600
GresTypes=gpu
NodeName=${node} NodeAddr=127.0.0.1 CPUs=${cpus}${gres_line} State=UNKNOWN
PartitionName=local Nodes=${node} Default=YES MaxTime=INFINITE State=UP
EOF

# slurmd loads a cgroup plugin whatever the configuration uses (here none: proctrack/pgid, task/none). Under cgroup
# v2 it would ask systemd, over D-Bus, for a scope for slurmstepd; a machine without systemd (a VM or container) has
# none to ask, so it makes the scope itself.
cat >"${dir}/etc/cgroup.conf" <<EOF
CgroupPlugin=autodetect
IgnoreSystemd=yes
EOF

# Without systemd, slurmd makes its scope in /sys/fs/cgroup/system.slice, which it does not create: a VM booted
# without systemd (the H200 nodes lent here) has none, and slurmd then fails with "Could not create scope
# directory". As root, this makes the slice (an empty cgroup, removed again by stop) and enables the cpu, cpuset and
# memory controllers for the root's children where they are not, as systemd would have.
cgroup_slice() {
  local root=/sys/fs/cgroup controller
  [ -f "${root}/cgroup.controllers" ] && [ ! -d "${root}/system.slice" ] || return 0
  [ "$(id -u)" -eq 0 ] || die "slurmd needs ${root}/system.slice on this machine (cgroup v2 without systemd); run as root"
  for controller in cpu cpuset memory; do
    grep -qw "${controller}" "${root}/cgroup.subtree_control" ||
      echo "+${controller}" >"${root}/cgroup.subtree_control" 2>/dev/null ||
      say "could not enable the ${controller} controller for ${root}'s children"
  done
  mkdir "${root}/system.slice" || die "could not make ${root}/system.slice for slurmd's scope"
  touch "${dir}/run/made_cgroup_slice"
  say "made ${root}/system.slice for slurmd's scope (no systemd here); stop removes it"
}

cat >"${dir}/env.sh" <<EOF
# Written by scripts/slurm_local.sh: source it to use the cluster in ${dir}.
export SLURM_CONF="${dir}/etc/slurm.conf"
export PATH="${bin}:\${PATH}"
sacct-line() { sacct --completion --noheader --parsable2 --format=JobID,JobName,Partition,NodeList,State,ExitCode,Start,End --jobs "\$1"; }
EOF

# --- start ------------------------------------------------------------------------------------------------------
export SLURM_CONF="${dir}/etc/slurm.conf"
[ -s "${dir}/munge/munge.key" ] || { head -c 1024 /dev/urandom >"${dir}/munge/munge.key"; chmod 400 "${dir}/munge/munge.key"; }
# --force: munged refuses a socket folder others could write to or a root-owned key as root otherwise; this
# cluster's folder is the user's own.
"${munged}" --force --socket="${dir}/munge/munge.socket" --key-file="${dir}/munge/munge.key" \
  --pid-file="${dir}/run/munged.pid" --log-file="${dir}/log/munged.log" --seed-file="${dir}/munge/munged.seed" \
  || die "munged did not start: $(tail -3 "${dir}/log/munged.log" 2>/dev/null)"
"${slurmctld}" -f "${SLURM_CONF}" -i || die "slurmctld did not start: $(tail -5 "${dir}/log/slurmctld.log" 2>/dev/null)"
cgroup_slice
"${slurmd}" -f "${SLURM_CONF}" -N "${node}" -d "${slurmstepd}" || die "slurmd did not start: $(tail -5 "${dir}/log/slurmd.log" 2>/dev/null)"

# The node is ready when slurmctld lists it idle.
for _ in $(seq 1 150); do
  state="$("${bin}/sinfo" --noheader --nodes="${node}" --format=%T 2>/dev/null || true)"
  [ "${state}" = idle ] && break
  sleep 0.2
done
if [ "${state:-}" != idle ]; then
  say "node ${node} is '${state:-unknown}' after 30 s; slurmd's log:"
  tail -20 "${dir}/log/slurmd.log" >&2 || true
  stop
  exit 1
fi
say "cluster up in ${dir}: node ${node} (${cpus} CPUs, ${gpus} GPUs as gres/gpu), slurmctld on 127.0.0.1:${ctld_port}$([ -n "${bundle}" ] && echo ", from ${bundle}")"
say "use it: . ${dir}/env.sh"
