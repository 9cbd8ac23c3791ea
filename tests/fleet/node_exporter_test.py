#!/usr/bin/env python3
"""gpubench's Prometheus files read by a real node_exporter (Debian's prometheus-node-exporter), through its textfile
collector, as a site runs it: `check --prometheus` on a recorded H200 run against its baseline, and `watch
--prometheus` beside a job on this machine (no GPU: the job and host gauges, and the one that says the GPUs could not
be read). The exporter is started on a loopback port with only the textfile collector, and /metrics is scraped:
- it serves gpubench_check_passed, one gpubench_metric_verdict series per metric and the watch gauges, with
  node_textfile_scrape_error 0;
- scraped in a loop while watch rewrites its file after every sample and check rewrites its own again and again,
  every scrape reads whole files (node_textfile_scrape_error stays 0, every series is there every time) and the
  watch gauges move between scrapes: the files are replaced, never seen half-written;
- a file that is not the text format makes node_textfile_scrape_error 1 (the check above can fail).
Without the exporter it exits 77, which CTest reports as skipped, but fails in CI (CI set).

usage: node_exporter_test.py GPUBENCH DATA_DIR
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

GPUBENCH, DATA = sys.argv[1:3]
sys.argv[1:] = []
SKIPPED = 77
EXPORTER = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
RUN = os.path.join(DATA, "check", "healthy_1.json")
BASELINE = os.path.join(DATA, "check", "baseline.json")
SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)")


def samples(text):
    """[(name, labels text, value)] of a scrape; comments left out."""
    found = []
    for line in text.splitlines():
        m = SAMPLE.match(line)
        if m:
            found.append((m.group(1), m.group(2) or "", float(m.group(3))))
    return found


def value(found, name, labels=""):
    values = [v for n, l, v in found if n == name and labels in l]
    return values[0] if len(values) == 1 else None


class TheTextfileCollector(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gpubench-node-exporter-")
        self.textfiles = os.path.join(self.tmp, "textfile_collector")
        os.mkdir(self.textfiles)
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.log = open(os.path.join(self.tmp, "exporter.log"), "w")
        # Only the textfile collector: the others read the host, which this test is not about.
        self.exporter = subprocess.Popen(
            [EXPORTER, f"--web.listen-address=127.0.0.1:{self.port}", "--collector.disable-defaults",
             "--collector.textfile", f"--collector.textfile.directory={self.textfiles}"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        while True:
            try:
                self.scrape()
                break
            except OSError:
                if time.time() > deadline or self.exporter.poll() is not None:
                    self.fail("node_exporter did not answer: " + open(self.log.name).read())
                time.sleep(0.1)

    def tearDown(self):
        self.exporter.terminate()
        self.exporter.wait(timeout=10)
        self.log.close()
        shutil.rmtree(self.tmp)

    def scrape(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as r:
            return r.read().decode()

    def check(self, name="gpubench.prom"):
        done = subprocess.run([GPUBENCH, "check", RUN, "--baseline", BASELINE, "--prometheus",
                               os.path.join(self.textfiles, name)], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def test_check_and_watch_files_are_served_and_stay_whole_while_they_are_replaced(self):
        self.check()
        watch = subprocess.Popen([GPUBENCH, "watch", "--no-color", "--interval", "0.2", "-o",
                                  os.path.join(self.tmp, "watch.json"), "--prometheus",
                                  os.path.join(self.textfiles, "gpubench_watch.prom"), "--", "sleep", "6"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        stop = threading.Event()
        rewrites = []

        def rewrite_check():  # check's file replaced again and again while the exporter reads it
            while not stop.is_set():
                self.check()
                rewrites.append(time.time())

        writer = threading.Thread(target=rewrite_check)
        writer.start()
        scrapes, elapsed, failures = 0, set(), []
        try:
            while watch.poll() is None:
                found = samples(self.scrape())
                scrapes += 1
                errors = value(found, "node_textfile_scrape_error")
                if errors != 0:
                    failures.append(f"scrape {scrapes}: node_textfile_scrape_error {errors}")
                if value(found, "gpubench_check_passed") != 1:
                    failures.append(f"scrape {scrapes}: gpubench_check_passed {value(found, 'gpubench_check_passed')}")
                verdicts = [s for s in found if s[0] == "gpubench_metric_verdict"]
                if len(verdicts) != 7:
                    failures.append(f"scrape {scrapes}: {len(verdicts)} verdict series, not 7")
                seconds = value(found, "gpubench_watch_elapsed_seconds")
                if seconds is not None:
                    elapsed.add(seconds)
                    if value(found, "gpubench_watch_running") not in (0, 1):
                        failures.append(f"scrape {scrapes}: watch file without gpubench_watch_running")
                time.sleep(0.02)
        finally:
            stop.set()
            writer.join()
        self.assertEqual(watch.wait(timeout=30), 0)
        self.assertEqual(failures, [])
        self.assertGreater(scrapes, 20)
        self.assertGreater(len(rewrites), 3)   # check's file was replaced during the scrapes
        self.assertGreater(len(elapsed), 5)    # and watch's, after each sample

        # After the job: every family once more, as a site's Prometheus stores them.
        found = samples(self.scrape())
        self.assertEqual(value(found, "node_textfile_scrape_error"), 0)
        self.assertEqual(value(found, "gpubench_check_passed"), 1)
        verdicts = [l for n, l, v in found if n == "gpubench_metric_verdict"]
        self.assertEqual(len(verdicts), 7)
        kinds = sorted(re.search(r'verdict="([^"]*)"', l).group(1) for l in verdicts)
        self.assertEqual(kinds, ["informational"] + ["pass"] * 6)  # memcpy_d2d is not gated by this baseline
        self.assertEqual(len([n for n, l, v in found if n == "gpubench_bandwidth_bytes_per_second"]), 7)
        self.assertIsNotNone(value(found, "gpubench_run_timestamp_seconds"))
        for gauge in ("gpubench_watch_running", "gpubench_watch_elapsed_seconds", "gpubench_watch_gpu_unavailable",
                      "gpubench_watch_job_cpus_allowed"):
            self.assertIsNotNone(value(found, gauge), gauge)
        self.assertEqual(value(found, "gpubench_watch_running"), 0)  # the job ended: watch said so last
        for name in ("gpubench.prom", "gpubench_watch.prom"):
            self.assertIsNotNone(value(found, "node_textfile_mtime_seconds", f'/{name}"'), name)

    def test_a_broken_file_is_a_scrape_error(self):
        self.check()
        with open(os.path.join(self.textfiles, "broken.prom"), "w") as f:
            f.write("gpubench_check_passed{host=\"x\" 1\n")
        found = samples(self.scrape())
        self.assertEqual(value(found, "node_textfile_scrape_error"), 1)


if __name__ == "__main__":
    if not EXPORTER:
        print("node_exporter_test: prometheus-node-exporter is not installed (scripts/setup.sh installs it)",
              file=sys.stderr)
        sys.exit(1 if os.environ.get("CI") else SKIPPED)
    unittest.main(verbosity=2)
