#!/usr/bin/env python3
"""examples/slurm/acceptance.sbatch on a real one-node Slurm (scripts/slurm_local.sh), on a machine with no GPU.

- With the real gpubench and gpubench-mpi: the job runs to its end; acceptance and gpubench-mpi (started by
  `srun --mpi=pmix`, which gets as far as MPI_Init) exit 3; the job's exit code, as slurmctld and `sacct` record
  it, is 3, and its last line calls the node broken, not slow; the node's verdicts land in RESULTS/HOST/.
- With stand-ins for gpubench and gpubench-mpi that exit with chosen codes: each step's code reaches the job's exit
  code as the script documents (the worst one); the results land where the script says (RESULTS/HOST/RUN-acceptance
  .json, RESULTS/nccl-JOBID.json); the fleet check runs over every acceptance document once there are two.
- The job's slurmstepd loaded Slurm's, MUNGE's and PMIx's libraries from where the cluster was started from: the
  installed packages, or with `bundle` the folder scripts/slurm_offline_bundle.sh makes (made in BUILD_DIR when
  missing), which is how the cluster runs on a GPU node that cannot install packages.

The test starts its own cluster in a temporary folder and stops it at the end (.ci/run starts nothing for it).
Without Slurm (or as a user other than root, since slurmd starts jobs as their owner) it exits 77, which CTest
reports as skipped, but fails in CI (CI set).

usage: slurm_job_test.py REPO GPUBENCH GPUBENCH_MPI|"" installed|bundle BUILD_DIR
"""
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

REPO, GPUBENCH, GPUBENCH_MPI, MODE, BUILD_DIR = sys.argv[1:6]
sys.argv[1:] = []
SKIPPED = 77
SBATCH = os.path.join(REPO, "examples", "slurm", "acceptance.sbatch")
HOST = socket.gethostname()

# gpubench and gpubench-mpi stand-ins: each call is recorded, writes what the real one writes where it is told to,
# and exits with the code the test chose for that command (STUB_CODES: "acceptance=0 mpi=1 check=2").
STUB_GPUBENCH = r"""#!/bin/bash
echo "gpubench $*" >>"${STUB_LOG}"
command="$1"; shift
code=$(tr ' ' '\n' <<<"${STUB_CODES}" | sed -n "s/^${command}=//p")
if [ "${command}" = acceptance ]; then
  while [ $# -gt 0 ]; do
    case "$1" in
      --results-dir) mkdir -p "$2/$(hostname)"; echo '{}' >"$2/$(hostname)/stub-${SLURM_JOB_ID}-acceptance.json"; shift ;;
      --json-file) echo '{"stub": true}' >"$2"; shift ;;
    esac
    shift
  done
fi
exit "${code:-0}"
"""
STUB_MPI = r"""#!/bin/bash
echo "gpubench-mpi rank ${SLURM_PROCID:-?} of ${SLURM_NTASKS:-?} $*" >>"${STUB_LOG}"
while [ $# -gt 0 ]; do [ "$1" = -o ] && echo '{}' >"$2"; shift; done
code=$(tr ' ' '\n' <<<"${STUB_CODES}" | sed -n "s/^mpi=//p")
exit "${code:-0}"
"""


def unavailable(reason):
    print(f"slurm_job_test: {reason}", file=sys.stderr)
    sys.exit(1 if os.environ.get("CI") else SKIPPED)


def bundle_folder():
    folder = os.path.join(BUILD_DIR, "slurm-bundle")
    if not os.path.exists(os.path.join(folder, "PACKAGES")):
        made = subprocess.run([os.path.join(REPO, "scripts", "slurm_offline_bundle.sh"), folder],
                              capture_output=True, text=True, timeout=600)
        if made.returncode != 0:
            unavailable("could not make the offline bundle:\n" + made.stdout + made.stderr)
    return folder


class Cluster:
    def __init__(self, folder, bundle):
        self.folder, self.bundle = folder, bundle
        extra = ["--bundle", bundle] if bundle else []
        started = subprocess.run([os.path.join(REPO, "scripts", "slurm_local.sh"), "start", folder, "--gpus", "1", *extra],
                                 capture_output=True, text=True, timeout=120)
        if started.returncode != 0:
            raise RuntimeError("slurm_local.sh start failed:\n" + started.stdout + started.stderr)
        self.env = dict(os.environ)
        # What env.sh sets: SLURM_CONF and PATH (the cluster's commands first).
        printed = subprocess.run(["bash", "-c", f". {folder}/env.sh && env -0"], capture_output=True, check=True)
        for item in printed.stdout.split(b"\0"):
            if b"=" in item:
                key, value = item.decode().split("=", 1)
                if key in ("SLURM_CONF", "PATH"):
                    self.env[key] = value

    def stop(self):
        subprocess.run([os.path.join(REPO, "scripts", "slurm_local.sh"), "stop", self.folder],
                       capture_output=True, timeout=120)

    def run(self, *args, env=None, cwd=None, timeout=120):
        return subprocess.run(list(args), capture_output=True, text=True, env=env or self.env, cwd=cwd, timeout=timeout)

    def submit(self, prefix, results, cwd, extra_env=None):
        """sbatch --wait the example on this one node with its one GPU; returns (exit code, output, sacct fields)."""
        env = dict(self.env, GPUBENCH_PREFIX=prefix, RESULTS=results, **(extra_env or {}))
        done = self.run("sbatch", "--wait", "--parsable", "--nodes=1", "--gpus-per-node=1", SBATCH, env=env, cwd=cwd,
                        timeout=300)
        job = done.stdout.strip().split(";")[0]
        assert job.isdigit(), f"sbatch printed no job id: {done.stdout!r} {done.stderr!r}"
        with open(os.path.join(cwd, f"gpubench-acceptance-{job}.out")) as f:
            output = f.read()
        line = self.run("sacct", "--completion", "--noheader", "--parsable2",
                        "--format=JobID,JobName,NodeList,State,ExitCode", "--jobs", job).stdout.strip()
        return job, done.returncode, output, line


class TheSbatchOnRealSlurm(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="gpubench-slurm-")
        cls.bundle = bundle_folder() if MODE == "bundle" else None
        cls.cluster = Cluster(os.path.join(cls.tmp, "cluster"), cls.bundle)
        cls.real = os.path.join(cls.tmp, "real", "bin")
        os.makedirs(cls.real)
        os.symlink(GPUBENCH, os.path.join(cls.real, "gpubench"))
        if GPUBENCH_MPI:
            os.symlink(GPUBENCH_MPI, os.path.join(cls.real, "gpubench-mpi"))
        cls.stub = os.path.join(cls.tmp, "stub", "bin")
        os.makedirs(cls.stub)
        for name, text in (("gpubench", STUB_GPUBENCH), ("gpubench-mpi", STUB_MPI)):
            path = os.path.join(cls.stub, name)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def folder(self, name):
        path = os.path.join(self.tmp, name)
        os.makedirs(path)
        return path

    def test_no_gpu_ends_the_job_with_3_a_broken_node(self):
        work = self.folder("no_gpu")
        results = os.path.join(work, "results")
        job, code, output, line = self.cluster.submit(os.path.dirname(self.real), results, work)
        self.assertEqual(code, 3, output)
        self.assertEqual(line, f"{job}|gpubench-acceptance|{HOST}|FAILED|3:0", output)
        self.assertIn("no usable GPU", output)
        self.assertIn(f"srun: error: {HOST}: task 0: Exited with exit code 3", output)
        self.assertIn("acceptance exit 3, collectives exit ", output)
        last = output.strip().splitlines()[-1]
        self.assertEqual(last, "== job exit 3: a node with no usable GPU or driver: a broken node to repair, not a slow "
                               "one (srun's error line names it)")
        self.assertNotIn("slow or failing GPU", last)
        if GPUBENCH_MPI:
            # srun --mpi=pmix started the rank and MPI_Init went through: the rank knows its number.
            self.assertIn("gpubench-mpi: rank 0: no usable GPU", output)
            self.assertIn("collectives exit 3", output)
        with open(os.path.join(results, HOST, f"{job}-verdicts.json")) as f:
            verdicts = json.load(f)
        reasons = " ".join(r for node in verdicts["node"] for r in node.get("reasons", []))
        self.assertIn("cuda.no_gpu", reasons)
        self.assertEqual(glob.glob(os.path.join(results, "*", "*-acceptance.json")), [])  # nothing measured

    def stub_job(self, work, results, codes):
        log = os.path.join(work, "calls.log")
        job, code, output, line = self.cluster.submit(os.path.dirname(self.stub), results, work,
                                                      {"STUB_CODES": codes, "STUB_LOG": log})
        with open(log) as f:
            calls = f.read()
        return job, code, output, line, calls

    def test_each_steps_code_reaches_the_job_and_results_land_where_the_script_says(self):
        if self.bundle:
            self.skipTest("the script's logic is the same on either cluster: run once, from the installed packages")
        work = self.folder("codes")
        results = os.path.join(work, "results")
        # One node's first job: one acceptance run, no fleet check yet.
        job, code, output, line, calls = self.stub_job(work, results, "acceptance=0 mpi=0 check=0")
        self.assertEqual((code, line), (0, f"{job}|gpubench-acceptance|{HOST}|COMPLETED|0:0"), output)
        self.assertIn("== no fleet check: 1 acceptance run", output)
        self.assertNotIn("gpubench check", calls)
        self.assertIn("gpubench-mpi rank 0 of 1 --suite quick -o " + os.path.join(results, f"nccl-{job}.json"), calls)
        self.assertTrue(os.path.exists(os.path.join(results, HOST, f"stub-{job}-acceptance.json")))
        self.assertTrue(os.path.exists(os.path.join(results, HOST, f"{job}-verdicts.json")))
        self.assertTrue(os.path.exists(os.path.join(results, f"nccl-{job}.json")))
        self.assertTrue(output.strip().endswith("== job exit 0: passed"), output)

        # The second: two runs, so the fleet check runs over both, and its code is the job's when it is the worst.
        job2, code, output, line, calls = self.stub_job(work, results, "acceptance=0 mpi=1 check=2")
        self.assertEqual((code, line), (2, f"{job2}|gpubench-acceptance|{HOST}|FAILED|2:0"), output)
        fleet = [c for c in calls.splitlines() if c.startswith("gpubench check --fleet")]
        self.assertEqual(len(fleet), 1, calls)
        self.assertEqual(sorted(fleet[0].split()[3:]),
                         sorted(os.path.join(results, HOST, f"stub-{j}-acceptance.json") for j in (job, job2)))
        self.assertIn("acceptance exit 0, collectives exit 1, fleet exit 2", output)

        # A slow GPU (acceptance 1) is a problem found, and outranks a clean collectives step.
        job3, code, output, line, _ = self.stub_job(work, results, "acceptance=1 mpi=0 check=0")
        self.assertEqual((code, line), (1, f"{job3}|gpubench-acceptance|{HOST}|FAILED|1:0"), output)
        self.assertIn("== job exit 1: a problem found", output)

        # No usable GPU on a node (3) outranks a problem found elsewhere (1).
        job4, code, output, line, _ = self.stub_job(work, results, "acceptance=3 mpi=1 check=1")
        self.assertEqual((code, line), (3, f"{job4}|gpubench-acceptance|{HOST}|FAILED|3:0"), output)

    def test_the_jobs_slurmstepd_runs_from_where_the_cluster_was_started(self):
        # The task's parent is its step's slurmstepd: its memory map names every library it loaded, PMIx included.
        step = self.cluster.run("srun", "--nodes=1", "--ntasks=1", "--mpi=pmix", "bash", "-c",
                                "readlink /proc/$PPID/exe; awk '{print $6}' /proc/$PPID/maps | sort -u")
        self.assertEqual(step.returncode, 0, step.stderr)
        lines = step.stdout.split()
        programs = [p for p in lines if p.endswith(".so") or ".so." in p or "/sbin/" in p]
        ours = [p for p in programs if any(k in p for k in ("slurm", "munge", "pmix"))]
        self.assertTrue(any("libpmix.so" in p for p in ours), ours)  # --mpi=pmix loaded PMIx into the step
        self.assertTrue(any("libslurmfull" in p for p in ours), ours)
        if self.bundle:
            outside = [p for p in ours if not p.startswith(os.path.realpath(self.bundle))]
            self.assertEqual(outside, [], "the bundle's slurmstepd loaded these from outside the bundle")
            self.assertTrue(lines[0].startswith(os.path.realpath(self.bundle)), lines[0])
        else:
            self.assertTrue(all(p.startswith("/usr/") for p in ours), ours)


if __name__ == "__main__":
    if MODE == "installed" and not all(os.path.exists(p) for p in ("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch", "/usr/sbin/munged")):
        unavailable("Slurm is not installed (Debian's slurmctld, slurmd, slurm-client and munge: scripts/setup.sh installs them)")
    if os.geteuid() != 0:
        unavailable("slurmd must run as root to start jobs (this test runs its own one-node cluster)")
    unittest.main(verbosity=2)
