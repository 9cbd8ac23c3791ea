#!/usr/bin/env python3
"""`gpubench watch -- COMMAND` end to end, CPU only: the job's exit status (its code, or 128+signal) and its standard
streams pass through unchanged; SIGINT or SIGTERM sent to watch reaches the job, which stops, and watch still writes
the document and prints the diagnosis; a terminal's Ctrl-C reaches the job once, not twice; bad options exit 2 before
the job starts, naming the option; the document and the --json file are written; the Prometheus file is there while
the job runs and parses as the text format; without NVML the diagnosis says the GPU rules could not run and why.

usage: watch_command_test.py GPUBENCH_BINARY
"""
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
import unittest

from temporary_folder import TemporaryFolder
from test_arguments import GPUBENCH

sys.argv[1:] = []
PYTHON = sys.executable

# A job that says when its SIGINT handler is in place, counts the SIGINTs it gets for half a second after the first,
# and exits with that count.
COUNT_SIGINTS = """
import signal, sys, time
got = []
signal.signal(signal.SIGINT, lambda *a: got.append(time.time()))
print("ready", flush=True)
while not got:
    time.sleep(0.01)
end = time.time() + 0.5
while time.time() < end:
    time.sleep(0.01)
sys.exit(len(got))
"""


def load(path):
    with open(path) as f:
        return json.load(f)


def read(path):
    with open(path) as f:
        return f.read()


def watch(*args, **kwargs):
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("timeout", 60)
    return subprocess.run([GPUBENCH, "watch", "--no-color", *args], **kwargs)


class ThePassThrough(TemporaryFolder, unittest.TestCase):
    def test_the_jobs_exit_code_passes_through(self):
        result = watch("-o", os.path.join(self.tmp, "w.json"), "--", "sh", "-c", "exit 3")
        self.assertEqual(result.returncode, 3, result.stderr)
        document = load(os.path.join(self.tmp, "w.json"))
        self.assertEqual(document["job"], {"status": 3, "exit_code": 3})

    def test_a_job_killed_by_a_signal_exits_128_plus_it(self):
        result = watch("-o", os.path.join(self.tmp, "w.json"), "--", "sh", "-c", "kill -9 $$")
        self.assertEqual(result.returncode, 137, result.stderr)
        document = load(os.path.join(self.tmp, "w.json"))
        self.assertEqual(document["job"]["signal"], 9)
        self.assertIn("ended by signal 9", result.stderr.decode())

    def test_stdout_stdin_and_stderr_pass_through_byte_for_byte(self):
        data = bytes(range(256)) * 64 + b"no newline at the end"
        job = "import sys; d = sys.stdin.buffer.read(); sys.stdout.buffer.write(d); sys.stderr.write('job err\\n')"
        result = watch("-o", os.path.join(self.tmp, "w.json"), "--", PYTHON, "-c", job, input=data)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, data)  # nothing of watch's own on standard output
        self.assertTrue(result.stderr.startswith(b"job err\n"), result.stderr[:200])  # watch speaks after the job

    def test_the_job_starts_with_a_clear_signal_mask_and_its_own_arguments(self):
        # The job reads its own mask. A shell reading its own (sh -c 'grep SigBlk /proc/$$/status') is no test: dash
        # blocks every signal around its vfork of grep and clears the mask only once it runs again, so a grep that is
        # quicker than its parent reads fffffffe7ffbfeff (a third of 300 tries on a busy machine, with no watch).
        job = "import sys; print([l for l in open('/proc/self/status') if l.startswith('SigBlk')][0], sys.argv[1:])"
        result = watch("-o", os.path.join(self.tmp, "w.json"), "--", PYTHON, "-c", job, "--output", "-o", "x y")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.decode(), "SigBlk:\t0000000000000000\n ['--output', '-o', 'x y']\n")


class StoppingTheJob(TemporaryFolder, unittest.TestCase):
    def stop_with(self, sent, expected_status):
        output = os.path.join(self.tmp, "w.json")
        process = subprocess.Popen([GPUBENCH, "watch", "--no-color", "-o", output, "--", "sleep", "30"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(1.2)
        started = time.time()
        process.send_signal(sent)
        _, stderr = process.communicate(timeout=20)
        self.assertLess(time.time() - started, 2.0, "the job was not stopped within 2 s")
        self.assertEqual(process.returncode, expected_status, stderr)
        document = load(output)
        self.assertEqual(document["stopped_by"], signal.Signals(sent).name)
        self.assertEqual(document["job"]["signal"], sent)
        self.assertIn("document: " + output, stderr.decode())
        self.assertIn("watch received " + signal.Signals(sent).name, stderr.decode())

    def test_sigint_to_watch_stops_the_job_and_the_document_is_written(self):
        self.stop_with(signal.SIGINT, 130)

    def test_sigterm_to_watch_stops_the_job_and_the_document_is_written(self):
        self.stop_with(signal.SIGTERM, 143)

    def test_a_job_that_handles_the_signal_ends_as_it_chooses(self):
        job = "import signal, sys, time; signal.signal(signal.SIGTERM, lambda *a: sys.exit(5)); print('ready', flush=True); time.sleep(30)"
        process = subprocess.Popen([GPUBENCH, "watch", "-o", os.path.join(self.tmp, "w.json"), "--", PYTHON, "-c", job],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(process.stdout.readline(), b"ready\n")
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=20)
        self.assertEqual(process.returncode, 5, stderr)

    def test_a_terminals_ctrl_c_reaches_the_job_once(self):
        """The job stays in the terminal's foreground group: the terminal's Ctrl-C reaches it, and watch, which gets
        the same Ctrl-C, does not send it a second one."""
        output = os.path.join(self.tmp, "w.json")
        pid, master = pty.fork()
        if pid == 0:  # the child: a session of its own with the pty as its terminal, in the foreground
            os.execv(GPUBENCH, [GPUBENCH, "watch", "--no-color", "-o", output, "--", PYTHON, "-c", COUNT_SIGINTS])
        text = b""
        deadline = time.time() + 30
        while b"ready" not in text and time.time() < deadline:
            if select.select([master], [], [], 0.5)[0]:
                text += os.read(master, 4096)
        self.assertIn(b"ready", text)
        os.write(master, b"\x03")  # Ctrl-C: the terminal sends SIGINT to its foreground process group
        while True:
            try:
                if not select.select([master], [], [], 20)[0]:
                    break
                chunk = os.read(master, 4096)
            except OSError:  # EIO once every process holding the terminal has gone
                break
            if not chunk:
                break
            text += chunk
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 1, text.decode(errors="replace"))
        self.assertEqual(load(output)["job"]["exit_code"], 1)

    def test_a_job_that_ends_by_itself_leaves_no_stop_behind(self):
        output = os.path.join(self.tmp, "w.json")
        result = watch("-o", output, "--", "sleep", "1.5")
        self.assertEqual(result.returncode, 0, result.stderr)
        document = load(output)
        self.assertNotIn("stopped_by", document)
        self.assertGreaterEqual(document["duration_s"], 1.4)
        self.assertLess(document["duration_s"], 3)


class BadUsage(TemporaryFolder, unittest.TestCase):
    def refused(self, *args, naming):
        marker = os.path.join(self.tmp, "the-job-ran")
        result = watch(*args, "--", "touch", marker) if "--" not in args else watch(*args)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(naming, result.stderr.decode())
        self.assertFalse(os.path.exists(marker), "the job ran")

    def test_each_bad_option_exits_2_naming_it_before_the_job_starts(self):
        self.refused("--interval", "0.05s", naming="--interval")
        self.refused("--interval", "fast", naming="--interval")
        self.refused("--devices", "zero", naming="--devices")
        self.refused("--duration", "1x", naming="--duration")
        self.refused("--ceilings", os.path.join(self.tmp, "absent.json"), naming="--ceilings")
        self.refused("--ceilings", self.write("notes.json", '{"schema": "something/1"}'), naming="--ceilings")
        self.refused("-o", os.path.join(self.tmp, "no-such-folder", "w.json"), naming="-o")
        self.refused("--prometheus", os.path.join(self.tmp, "no-such-folder", "w.prom"), naming="--prometheus")
        self.refused("--no-such-option", naming="--no-such-option")
        self.refused("--duration", "5s", "--", "true", naming="--duration")

    def test_a_command_that_does_not_exist_exits_2(self):
        result = watch("-o", os.path.join(self.tmp, "w.json"), "--", "no-such-command-for-gpubench")
        self.assertEqual(result.returncode, 2)
        self.assertIn("'no-such-command-for-gpubench': not found in PATH", result.stderr.decode())
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "w.json")))

    def test_nothing_to_watch_exits_2(self):
        result = watch()
        self.assertEqual(result.returncode, 2)
        self.assertIn("nothing to watch", result.stderr.decode())


SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(SOURCE, "tests", "data", "watch", "corpus")


class TheReplay(TemporaryFolder, unittest.TestCase):
    """`watch --replay DOC`: a recorded document diagnosed again with today's rules."""

    def test_every_recorded_job_replays_to_the_diagnosis_it_was_made_for(self):
        for job in load(os.path.join(SOURCE, "tests", "watch_jobs", "corpus.json"))["jobs"]:
            with self.subTest(job=job["name"]):
                result = watch("--replay", os.path.join(CORPUS, job["name"] + ".json"), "--json")
                self.assertEqual(result.returncode, 0, result.stderr)
                diagnosis = json.loads(result.stdout)
                self.assertEqual(len(diagnosis), 1)
                fired = {f["rule"]: f.get("cause", "") for f in diagnosis[0]["findings"] if f["outcome"] == "fired"}
                self.assertEqual(fired, job["fired"])

    def test_it_prints_what_watch_prints_at_the_end_of_a_job(self):
        result = watch("--replay", os.path.join(CORPUS, "waiting_on_socket.json"))
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout.decode()
        self.assertIn("replayed " + os.path.join(CORPUS, "waiting_on_socket.json"), out)
        self.assertIn("FIRED gpu_starved (waiting_network): the GPU sat idle", out)
        self.assertIn("recvfrom() on TCP 127.0.0.1:", out)
        self.assertIn("fix: Fetch ahead", out)

    def test_other_ceilings_and_a_diagnosis_file(self):
        baseline = os.path.join(SOURCE, "baselines", "nvidia-h200-x1.json")
        diagnosis = os.path.join(self.tmp, "d.json")
        result = watch("--replay", os.path.join(CORPUS, "elementwise_bandwidth.json"), "--ceilings", baseline,
                       "--json", diagnosis)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("ceilings: " + baseline + " (baseline", result.stdout.decode())
        self.assertEqual(load(diagnosis)["ceilings"]["source"], baseline)

    def test_a_job_or_a_results_document_is_refused(self):
        result = watch("--replay", os.path.join(CORPUS, "healthy_bf16.json"), "--", "true")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--replay", result.stderr.decode())
        not_watch = self.write("results.json", '{"schema": "gpubench.results/1"}')
        result = watch("--replay", not_watch)
        self.assertEqual(result.returncode, 2)
        self.assertIn("results.json", result.stderr.decode())

    def test_json_without_a_file_is_for_replay_only(self):
        result = watch("--json", "--", "true")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--json needs a FILE", result.stderr.decode())


class TheOutputs(TemporaryFolder, unittest.TestCase):
    def test_document_json_and_a_live_prometheus_file(self):
        output, diagnosis, prom = (os.path.join(self.tmp, name) for name in ("w.json", "d.json", "w.prom"))
        process = subprocess.Popen([GPUBENCH, "watch", "--no-color", "--interval", "0.25s", "-o", output, "--json",
                                    diagnosis, "--prometheus", prom, "--", "sleep", "2.5"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.time() + 2
        while not os.path.exists(prom) and time.time() < deadline:
            time.sleep(0.05)
        self.assertTrue(os.path.exists(prom), "no Prometheus file while the job runs")
        self.assertIsNone(process.poll())
        live = parse_prometheus(read(prom))
        self.assertEqual(live["gpubench_watch_running"], [({"Hostname": os.uname().nodename}, 1.0)])
        _, stderr = process.communicate(timeout=30)
        self.assertEqual(process.returncode, 0, stderr)
        final = parse_prometheus(read(prom))
        self.assertEqual(final["gpubench_watch_running"][0][1], 0.0)
        self.assertEqual(final["gpubench_watch_job_exit_status"][0][1], 0.0)
        # No file of a rewrite is left behind in the folder.
        self.assertEqual(sorted(os.listdir(self.tmp)), ["d.json", "w.json", "w.prom"])

        document = load(output)
        self.assertEqual(document["schema"], "gpubench.watch/1")
        self.assertEqual(document["command"], ["sleep", "2.5"])
        self.assertEqual(document["interval_s"], 0.25)
        self.assertEqual(document["mode"], "command")
        for key in ("gpus", "host", "events", "ceilings", "diagnosis", "diagnosed_gpus", "started_at", "hostname"):
            self.assertIn(key, document)
        times = [s["t_s"] for s in document["host"]]
        self.assertEqual(times, sorted(times))
        for gpu in document["gpus"]:
            self.assertEqual([s["t_s"] for s in gpu["samples"]], sorted(s["t_s"] for s in gpu["samples"]))
        alone = load(diagnosis)
        self.assertEqual(alone["schema"], "gpubench.watch-diagnosis/1")
        self.assertEqual(alone["diagnosis"], document["diagnosis"])
        self.assertNotIn("gpus", alone)
        for line in ("document: " + output, "diagnosis: " + diagnosis, "prometheus: " + prom):
            self.assertIn(line, stderr.decode())

    def test_without_nvml_the_gpu_rules_could_not_run_and_say_why(self):
        output = os.path.join(self.tmp, "w.json")
        result = watch("-o", output, "--", "sleep", "0.5")
        self.assertEqual(result.returncode, 0, result.stderr)
        document = load(output)
        if document["gpus"]:
            self.skipTest("NVML is here: the GPUs were sampled")
        self.assertIn("NVML", document["gpu_unavailable"])
        self.assertEqual(document["diagnosis"], [])
        self.assertIn("GPU rules could not run: " + document["gpu_unavailable"], result.stderr.decode())

    def test_duration_without_nvml_has_nothing_to_watch(self):
        result = watch("--duration", "2s", "-o", os.path.join(self.tmp, "w.json"))
        if result.returncode == 0:
            self.skipTest("NVML is here: the GPUs were watched")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("nothing to watch for 2s: NVML", result.stderr.decode())


def parse_prometheus(text):
    """Each family's samples as (labels, value), checking the text format's grammar on the way."""
    families, typed = {}, set()
    sample = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"'
                        r'(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*)\})? (\S+)$')
    for line in text.splitlines():
        if line.startswith("# HELP "):
            continue
        if line.startswith("# TYPE "):
            name, kind = line.split()[2:4]
            assert name not in typed, f"TYPE of {name} twice"
            assert kind == "gauge", line
            typed.add(name)
            continue
        match = sample.match(line)
        assert match, f"not a sample line: {line!r}"
        name = match.group(1)
        assert name in typed, f"{name} has no TYPE line before its samples"
        labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', match.group(3) or ""))
        families.setdefault(name, []).append((labels, float(match.group(4))))
    return families


if __name__ == "__main__":
    unittest.main(verbosity=2)
