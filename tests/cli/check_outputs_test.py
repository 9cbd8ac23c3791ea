#!/usr/bin/env python3
"""End-to-end tests of gpubench check/compare/baseline/history on recorded files: exit codes, and every
output format parsed back (JSON, JUnit XML, Markdown table, Prometheus text format). The standard library, and
prometheus_client's parser for the Prometheus file (Debian's python3-prometheus-client, which scripts/setup.sh
installs): without it those tests skip, except in CI (CI set), where they fail.

usage: check_outputs_test.py GPUBENCH_BINARY TEST_DATA_DIR
"""
import calendar
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

from temporary_folder import TemporaryFolder

GPUBENCH = sys.argv[1] if len(sys.argv) > 1 else "build/gpubench"
DATA = sys.argv[2] if len(sys.argv) > 2 else "tests/data"
CHECK = os.path.join(DATA, "check")


def run(*args):
    return subprocess.run([GPUBENCH, *args], capture_output=True, text=True, timeout=120)


def prometheus_families(test, path):
    """The metric families of a Prometheus text file as the official parser reads them, by name; each name once."""
    try:
        from prometheus_client.parser import text_string_to_metric_families
    except ImportError:
        if os.environ.get("CI"):
            test.fail("prometheus_client is not installed: CI installs it with scripts/setup.sh (python3-prometheus-client)")
        test.skipTest("prometheus_client is not installed for " + sys.executable +
                      " (Debian: python3-prometheus-client, which scripts/setup.sh installs)")
    with open(path) as f:
        families = list(text_string_to_metric_families(f.read()))
    names = [family.name for family in families]
    test.assertEqual(len(names), len(set(names)), "each family's samples are together, under one HELP and TYPE: " + str(names))
    series = set()
    for family in families:
        test.assertEqual(family.type, "gauge", family.name + " has a TYPE line before its samples")
        test.assertTrue(family.documentation, family.name + " has a HELP line")
        for sample in family.samples:
            # One series twice is an error to whatever gathers the file (node_exporter, Prometheus).
            key = (sample.name, tuple(sorted(sample.labels.items())))
            test.assertNotIn(key, series, "each series once")
            series.add(key)
    return {family.name: family for family in families}


def utc_seconds(text):
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


class RefusesInput:
    """For a TestCase whose commands should refuse their input: exit 2 with a message naming what was wrong."""

    def assert_rejected(self, result, *words):
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        for word in words:
            self.assertIn(word, result.stderr)


class CheckOutputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="gpubench-check-test-")
        cls.junit = os.path.join(cls.tmp, "check.xml")
        cls.markdown = os.path.join(cls.tmp, "check.md")
        cls.prom = os.path.join(cls.tmp, "check.prom")
        cls.json_file = os.path.join(cls.tmp, "check.json")
        cls.result = run("check", os.path.join(CHECK, "mixed.json"), "--baseline", os.path.join(CHECK, "baseline.json"),
                         "--json", "--json-file", cls.json_file, "--junit", cls.junit, "--markdown", cls.markdown,
                         "--prometheus", cls.prom)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_exit_code_is_one_on_regression_and_failure(self):
        self.assertEqual(self.result.returncode, 1, self.result.stderr)

    def test_json_has_every_verdict(self):
        report = json.loads(self.result.stdout)
        self.assertEqual(report["verdict"], "fail")
        kinds = {m["verdict"] for m in report["metrics"]}
        self.assertEqual(kinds, {"pass", "regression", "improvement", "noisy", "missing", "informational", "failed", "new"})
        self.assertEqual(report["counts"]["regression"], 1)
        self.assertEqual(report["counts"]["informational"], 1)
        memcpy = next(m for m in report["metrics"] if m["verdict"] == "informational")
        self.assertEqual(memcpy["id"], "memory/memcpy_d2d/1GiB/gpu0/bandwidth")
        self.assertAlmostEqual(memcpy["change"], -0.09, delta=0.001)
        self.assertIn("expected", memcpy)
        self.assertRegex(memcpy["reason"], r"^not gating: run-to-run spread .* over 10 runs: .*; measured -9\.0 % against ")

    def test_json_file_holds_what_json_prints(self):
        with open(self.json_file) as f:
            self.assertEqual(json.load(f), json.loads(self.result.stdout))

    def test_junit_is_well_formed_with_one_case_per_metric(self):
        root = ET.parse(self.junit).getroot()
        self.assertEqual(root.tag, "testsuites")
        cases = root.findall("./testsuite/testcase")
        # One per metric, and first one that says which figures deciding acceptance were not judged: memcpy (not
        # gating) and the 4 GiB read (not in the baseline).
        self.assertEqual(len(cases), 9)
        unjudged = cases[0]
        self.assertEqual(unjudged.get("name"), "every figure that decides acceptance judged")
        self.assertIn("2 figures that decide acceptance could not be judged", unjudged.find("skipped").get("message"))
        self.assertTrue(unjudged.find("skipped").get("message").endswith(
            ": memory/memcpy_d2d/1GiB/gpu0/bandwidth, memory/read/4GiB/gpu0/bandwidth"))
        cases = cases[1:]
        # The host is in every class name: a CI system that keys test cases on class name and name (GitLab) keeps
        # the reports of several nodes apart.
        self.assertEqual({c.get("classname") for c in cases}, {"gpubench.vm.memory"})
        self.assertEqual({c.get("time") for c in cases}, {"0.000"}, "how long one metric took is not known")
        failures = [c for c in cases if c.find("failure") is not None]
        skipped = [c for c in cases if c.find("skipped") is not None]
        self.assertEqual(len(failures), 2)  # the regression and the failed benchmark
        self.assertEqual(len(skipped), 3)   # noisy, missing and informational
        judged = [c for c in cases if c.find("properties") is not None]
        self.assertTrue(judged)
        for case in judged:
            self.assertEqual({p.get("name"): p.get("value") for p in case.iter("property")}["baseline"],
                             os.path.join(CHECK, "baseline.json"))
        informational = [c.find("skipped").get("message") for c in skipped
                         if c.get("name") == "memory/memcpy_d2d/1GiB/gpu0/bandwidth"]
        self.assertEqual(len(informational), 1)
        self.assertTrue(informational[0].startswith("informational: not gating: "), informational[0])
        suite = root.find("testsuite")
        self.assertEqual(suite.get("failures"), "2")
        self.assertEqual(suite.get("skipped"), "4")
        self.assertEqual(suite.get("tests"), "9")
        # When and where the run was, and how long it took (mixed.json: 17:05:48 to 17:05:55).
        self.assertEqual(suite.get("name"), "gpubench.vm")
        self.assertEqual(suite.get("hostname"), "vm")
        self.assertEqual(suite.get("timestamp"), "2026-11-29T17:05:48")
        self.assertEqual(suite.get("time"), "7.000")

    def test_markdown_table_shape(self):
        lines = open(self.markdown).read().splitlines()
        self.assertTrue(lines[0].startswith("### gpubench check: FAIL"))
        table = [l for l in lines if l.startswith("|")]
        columns = table[0].count("|")
        self.assertGreater(columns, 5)
        self.assertTrue(re.fullmatch(r"\|( -+:? \|| ---: \|)+", table[1]), table[1])
        for row in table:
            self.assertEqual(row.replace("\\|", "").count("|"), columns, row)
        self.assertEqual(len(table), 2 + 8)
        self.assertIn(" 1 informational (not gating), ", lines[2])
        row = next(l for l in table if "memcpy_d2d" in l)
        self.assertEqual([c.strip() for c in row.split("|")][1], "informational")
        self.assertIn("not gating: ", row)

    def test_prometheus_families_in_base_units(self):
        families = prometheus_families(self, self.prom)
        self.assertEqual(set(families), {"gpubench_build_info", "gpubench_run_timestamp_seconds", "gpubench_check_passed",
                                         "gpubench_check_unjudged_deciding_figures",
                                         "gpubench_bandwidth_bytes_per_second", "gpubench_baseline_bandwidth_bytes_per_second",
                                         "gpubench_metric_verdict", "gpubench_metric_tolerance_ratio"})
        with open(os.path.join(CHECK, "mixed.json")) as f:
            doc = json.load(f)
        uuid = doc["environment"]["gpus"][0]["uuid"]

        def only(name):
            self.assertEqual(len(families[name].samples), 1, name)
            return families[name].samples[0]
        build = only("gpubench_build_info")
        self.assertEqual(build.labels, {"host": "vm", "version": doc["run"]["gpubench_version"], "git": doc["run"]["git_revision"],
                                        "cuda": "13.0", "driver": "580.159.04"})
        self.assertEqual(build.value, 1)
        self.assertEqual(only("gpubench_run_timestamp_seconds").value, utc_seconds(doc["run"]["started_at"]))
        self.assertEqual(only("gpubench_check_passed").value, 0)
        self.assertEqual(only("gpubench_check_unjudged_deciding_figures").value, 2, "memcpy, and the new 4 GiB read")

        measured = {s.labels["benchmark"]: s for s in families["gpubench_bandwidth_bytes_per_second"].samples}
        write = next(m for m in doc["metrics"] if m["id"] == "memory/write/1GiB/gpu0/bandwidth")
        self.assertEqual(measured["write/1GiB/bandwidth"].labels,
                         {"host": "vm", "gpu": "0", "gpu_uuid": uuid, "family": "memory", "benchmark": "write/1GiB/bandwidth"})
        self.assertAlmostEqual(measured["write/1GiB/bandwidth"].value / 1e9, write["value"], delta=write["value"] * 1e-5)
        self.assertNotIn("triad/1GiB/bandwidth", measured, "the failed triad measured nothing")
        expected = {s.labels["benchmark"]: s.value for s in families["gpubench_baseline_bandwidth_bytes_per_second"].samples}
        self.assertIn("triad/1GiB/bandwidth", expected, "its baseline is still there")
        self.assertNotIn("read/4GiB/bandwidth", expected, "a new metric has no baseline")

        verdicts = {s.labels["benchmark"]: s for s in families["gpubench_metric_verdict"].samples}
        self.assertEqual(len(verdicts), 8)
        self.assertEqual(verdicts["memcpy_d2d/1GiB/bandwidth"].labels["verdict"], "informational")
        self.assertEqual(verdicts["write/1GiB/bandwidth"].labels,
                         {"host": "vm", "gpu": "0", "gpu_uuid": uuid, "family": "memory", "benchmark": "write/1GiB/bandwidth",
                          "verdict": "regression", "baseline": os.path.join(CHECK, "baseline.json")})
        self.assertEqual({s.value for s in verdicts.values()}, {1})
        # The tolerance each gating figure was judged at: here every one at its nominal 3 %.
        tolerances = {s.labels["benchmark"]: s for s in families["gpubench_metric_tolerance_ratio"].samples}
        self.assertEqual(set(tolerances), {"read/1GiB/bandwidth", "write/1GiB/bandwidth", "copy/1GiB/bandwidth",
                                           "scale/1GiB/bandwidth"}, "the judged figures, not the informational memcpy")
        for sample in tolerances.values():
            self.assertEqual(sample.value, 0.03)
            self.assertEqual(sample.labels["set_by"], "tolerance")

    def test_prometheus_every_unit_and_label_value(self):
        # One figure in each unit the benchmarks write, a GPU pair, NCCL's figure of no one GPU, a unit with no family
        # of its own, and a host name with every character the text format escapes, checked against the run itself.
        with open(os.path.join(CHECK, "healthy_1.json")) as f:
            doc = json.load(f)
        host = 'rack "7"\\node\nB'
        doc["run"]["host"] = host
        doc["environment"]["gpus"].append(dict(doc["environment"]["gpus"][0], index=1, uuid="GPU-peer"))
        template = doc["metrics"][0]
        figures = [("launch/graph/gpu0/time_per_graph", "us", 2.5, "latency_seconds", 2.5e-6),
                   ("p2p/latency/gpu0-gpu1/latency", "ns", 800, "latency_seconds", 8e-7),
                   ("alloc/cuda_malloc/2MiB/gpu0/time_per_call", "ms", 0.25, "latency_seconds", 2.5e-4),
                   ("gemm/bf16/8192/gpu0/tflops", "TFLOP/s", 700, "throughput_flops", 7e14),
                   ("gemm/tuned_over_default/gpu0/speedup", "x", 1.5, "ratio", 1.5),
                   ("overlap/pinned/64MiB/gpu0/efficiency", "%", 87.5, "efficiency_ratio", 0.875),
                   ("nccl/allreduce/ring/simple/1GiB/out_of_place/busbw", "GB/s", 360, "bandwidth_bytes_per_second", 3.6e11),
                   ("memory/odd/gpu0/widgets", "widgets/s", 3, "metric_value", 3)]
        for metric_id, unit, value, _, _ in figures:
            m = {k: v for k, v in template.items() if k not in ("peak", "efficiency")}
            m.update(id=metric_id, benchmark=metric_id.rsplit("/", 1)[0], family=metric_id.split("/")[0], unit=unit,
                     value=value, samples=[value] * 3)
            doc["metrics"].append(m)
        path = os.path.join(self.tmp, "units.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        prom = os.path.join(self.tmp, "units.prom")
        result = run("check", path, "--against", path, "--prometheus", prom)
        self.assertEqual(result.returncode, 0, result.stderr)
        families = prometheus_families(self, prom)
        for name in ("gpubench_check_passed", "gpubench_build_info", "gpubench_run_timestamp_seconds"):
            self.assertEqual(families[name].samples[0].labels["host"], host, "escaped and read back")
        for metric_id, unit, _, family, value in figures:
            for prefix in ("gpubench_", "gpubench_baseline_"):
                benchmark = {"p2p/latency/gpu0-gpu1/latency": "latency/latency",
                             "nccl/allreduce/ring/simple/1GiB/out_of_place/busbw": "allreduce/ring/simple/1GiB/out_of_place/busbw"}.get(
                                 metric_id, metric_id.split("/", 1)[1].replace("/gpu0", ""))
                found = [s for s in families[prefix + family].samples if s.labels["benchmark"] == benchmark]
                self.assertEqual(len(found), 1, prefix + family + " " + benchmark)
                self.assertAlmostEqual(found[0].value, value, delta=value * 1e-5)
                labels = found[0].labels
                self.assertEqual(labels["family"], metric_id.split("/")[0])
                self.assertEqual(labels.get("unit"), unit if family == "metric_value" else None, "an unknown unit is named")
                if metric_id.startswith("nccl/"):
                    self.assertNotIn("gpu", labels, "an all-reduce belongs to no one GPU")
                elif metric_id.startswith("p2p/"):
                    self.assertEqual((labels["gpu"], labels["peer_gpu"], labels["peer_gpu_uuid"]), ("0", "1", "GPU-peer"))
                else:
                    self.assertEqual((labels["gpu"], labels["gpu_uuid"]), ("0", doc["environment"]["gpus"][0]["uuid"]))

    def test_colour_on_a_terminal_unless_no_color_is_set(self):
        # https://no-color.org: a NO_COLOR that is present and not empty turns colour off, as --no-color does.
        import pty
        def on_a_terminal(extra_env):
            main, child = pty.openpty()
            env = dict(os.environ, **extra_env)
            process = subprocess.run([GPUBENCH, "check", os.path.join(CHECK, "mixed.json"), "--baseline",
                                      os.path.join(CHECK, "baseline.json")], stdout=child, stderr=subprocess.DEVNULL,
                                     env=env, timeout=120)
            os.close(child)
            text = b""
            while True:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the terminal's other end is closed: everything has been read
                    break
                if not chunk:
                    break
                text += chunk
            os.close(main)
            self.assertEqual(process.returncode, 1)
            return text.decode()
        self.assertIn("\033[", on_a_terminal({}))
        self.assertNotIn("\033[", on_a_terminal({"NO_COLOR": "1"}))
        self.assertIn("\033[", on_a_terminal({"NO_COLOR": ""}), "an empty NO_COLOR does not count")

    def test_console_table_worst_first_and_no_colour_in_a_pipe(self):
        result = run("check", os.path.join(CHECK, "mixed.json"), "--baseline", os.path.join(CHECK, "baseline.json"))
        self.assertEqual(result.returncode, 1)
        self.assertNotIn("\033[", result.stdout)
        kinds = ("failed", "regression", "noisy", "missing", "informational", "improvement", "pass", "new")
        rows = [l.split()[0] for l in result.stdout.splitlines() if l.split() and l.split()[0] in kinds]
        # At a glance, what needs a person; the passes, informational and new figures are counted, not listed.
        self.assertEqual(rows, ["failed", "regression", "noisy", "missing", "improvement"])
        self.assertIn(" 1 informational (not gating), ", result.stdout)
        self.assertIn("3 passed, informational or new figures not listed (--all lists every figure)", result.stdout)
        every = run("check", os.path.join(CHECK, "mixed.json"), "--baseline", os.path.join(CHECK, "baseline.json"),
                    "--all")
        rows = [l.split()[0] for l in every.stdout.splitlines() if l.split() and l.split()[0] in kinds]
        self.assertEqual(rows, ["failed", "regression", "noisy", "missing", "informational", "improvement", "pass",
                                "new"])

    def test_a_healthy_rerun_passes(self):
        result = run("check", os.path.join(CHECK, "healthy_2.json"), "--baseline", CHECK)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("PASS", result.stdout)

    def test_check_against_another_run(self):
        result = run("check", os.path.join(CHECK, "mixed.json"), "--against", os.path.join(CHECK, "healthy_1.json"), "--json")
        self.assertEqual(result.returncode, 1)
        report = json.loads(result.stdout)
        self.assertEqual(report["baseline"], os.path.join(CHECK, "healthy_1.json"))
        self.assertEqual(report["counts"]["informational"], 0, "a one-run baseline gates every metric: an explicit A/B")


class BadInput(TemporaryFolder, RefusesInput, unittest.TestCase):
    prefix = "gpubench-bad-input-"

    def test_recorded_confirmations_decide_a_regression(self):
        # mixed.json's write figure is a -10 % regression. Measured again in three fresh processes (as
        # `check --confirm` records them), it stands when they show it and turns noisy when they do not.
        with open(os.path.join(CHECK, "mixed.json")) as f:
            doc = json.load(f)
        write = next(m for m in doc["metrics"] if m["id"].startswith("memory/write/"))
        for factor, verdict, code in ((1.0, "regression", 1), (1 / 0.9, "noisy", None)):
            again = []
            for k in range(3):
                m = json.loads(json.dumps(write))
                m["value"] = write["value"] * factor * (1 + 0.001 * k)
                again.append(m)
            doc["confirmations"] = [{"metric": write["id"], "measurements": again}]
            path = os.path.join(self.tmp, "confirmed.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            result = run("check", path, "--baseline", os.path.join(CHECK, "baseline.json"), "--json")
            report = json.loads(result.stdout)
            judged = next(m for m in report["metrics"] if m["id"] == write["id"])
            self.assertEqual(judged["verdict"], verdict, judged["reason"])
            self.assertIn(" in 3 fresh processes (the run measured ", judged["reason"])
            if verdict == "noisy":
                self.assertTrue(judged["reason"].startswith("did not reproduce in 3 fresh processes"), judged["reason"])
                self.assertEqual(report["counts"]["regression"], 0)
            if code is not None:
                self.assertEqual(result.returncode, code, result.stderr)

    def test_bad_results_files(self):
        good = json.load(open(os.path.join(CHECK, "healthy_1.json")))
        baseline = os.path.join(CHECK, "baseline.json")
        text = json.dumps(good)
        path = self.write("truncated.json", text[: len(text) // 2])
        self.assert_rejected(run("check", path, "--baseline", baseline), "truncated.json", "truncated")
        wrong = dict(good, schema="gpubench.results/7")
        path = self.write("schema.json", json.dumps(wrong))
        self.assert_rejected(run("check", path, "--baseline", baseline), "schema.json", "'schema'")
        nan = json.loads(text)
        nan["metrics"][2]["value"] = None
        path = self.write("nan.json", json.dumps(nan))
        self.assert_rejected(run("check", path, "--baseline", baseline), "nan.json", "metrics[2].value")
        negative = json.loads(text)
        negative["metrics"][0]["value"] = -1
        path = self.write("negative.json", json.dumps(negative))
        self.assert_rejected(run("check", path, "--baseline", baseline), "metrics[0].value", "negative")
        missing = json.loads(text)
        del missing["metrics"][1]["unit"]
        path = self.write("missing.json", json.dumps(missing))
        self.assert_rejected(run("check", path, "--baseline", baseline), "metrics[1].unit")
        absurd = json.loads(text)
        absurd["metrics"][0]["value"] = 1e9
        path = self.write("absurd.json", json.dumps(absurd))
        self.assert_rejected(run("check", path, "--baseline", baseline), "metrics[0].value", "peak")

    def test_bad_baseline_file(self):
        good = json.load(open(os.path.join(CHECK, "baseline.json")))
        bad = json.loads(json.dumps(good))
        bad["metrics"]["memory/copy/1GiB/gpu0/bandwidth"]["expected"] = "fast"
        path = self.write("bad-baseline.json", json.dumps(bad))
        self.assert_rejected(run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline", path),
                             "bad-baseline.json", "metrics.memory/copy/1GiB/gpu0/bandwidth.expected")

    def test_no_matching_baseline_is_named(self):
        other = json.load(open(os.path.join(CHECK, "baseline.json")))
        other["applies_to"]["gpu_count"] = 8
        self.write("eight.json", json.dumps(other))
        result = run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline", self.tmp)
        self.assert_rejected(result, "no baseline for 1 x NVIDIA H200 (single)", "eight.json: 8 x NVIDIA H200")


class OtherCommands(unittest.TestCase):
    def test_baseline_create_takes_a_folder_as_history_does(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "b.json")
            # The folder holds eleven runs (ten healthy and mixed.json) and a baseline, which is passed over.
            result = run("baseline", "create", CHECK, "-o", out, "--keep-outliers")
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(out) as f:
                self.assertEqual(len(json.load(f)["runs"]), 11)

    def test_baseline_create_then_check(self):
        tmp = tempfile.mkdtemp()
        try:
            out = os.path.join(tmp, "b.json")
            runs = [os.path.join(CHECK, f"healthy_{i}.json") for i in range(1, 11)]
            result = run("baseline", "create", *runs, "-o", out, "--description", "test")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertNotIn("recommended", result.stderr, "ten runs are enough")
            # Two warnings: the ten runs are of one GPU, and memcpy_d2d, an acceptance figure (every memory one is),
            # moves too much to gate.
            self.assertEqual(result.stderr.count("warning"), 2, result.stderr)
            self.assertIn("warning: all 10 runs are of one node", result.stderr)
            self.assertIn("1 figure that decides acceptance will not gate, so check cannot see it regress", result.stderr)
            self.assertIn("  memory/memcpy_d2d/1GiB/gpu0/bandwidth: run-to-run spread", result.stderr)
            baseline = json.load(open(out))
            self.assertEqual(baseline["schema"], "gpubench.baseline/1")
            self.assertEqual(len(baseline["runs"]), 10)
            triad = baseline["metrics"]["memory/triad/1GiB/gpu0/bandwidth"]
            self.assertEqual(triad["runs"], 10)
            # Whether a figure gates is decided when the file is read (baselines/README.md), not written in it.
            for metric in baseline["metrics"].values():
                self.assertNotIn("gates", metric)
                self.assertNotIn("gate_reason", metric)
            self.assertIn("could not catch a halved link (-50 %)", result.stderr)
            # The per-family summary: family, metrics, gating, informational, median and largest spread.
            header = next(l for l in result.stdout.splitlines() if l.startswith("family"))
            self.assertEqual(header.split()[:4], ["family", "metrics", "gating", "informational"])
            memory = next(l for l in result.stdout.splitlines() if l.startswith("memory "))
            self.assertEqual(memory.split()[:4], ["memory", "7", "6", "1"])
            self.assertIn("memory/memcpy_d2d/1GiB/gpu0/bandwidth", memory, "the family's largest spread is named")
            check = run("check", os.path.join(CHECK, "healthy_5.json"), "--baseline", out)
            self.assertEqual(check.returncode, 0, check.stdout)
        finally:
            shutil.rmtree(tmp)

    def test_baseline_create_warns_below_ten_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            runs = [os.path.join(CHECK, f"healthy_{i}.json") for i in (1, 2, 3)]
            result = run("baseline", "create", *runs, "-o", os.path.join(tmp, "b.json"))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("warning: 3 runs; 10 or more are recommended", result.stderr)
            help_text = run("baseline", "create", "--help").stdout
            self.assertIn("10 or more runs", help_text)

    def test_baseline_create_warns_when_every_run_is_of_one_node(self):
        nights = [os.path.join(DATA, "nightly_h200x1", f"night{i}.json") for i in (1, 2, 3)]  # one GPU's three nights
        another_node = os.path.join(DATA, "nightly_h200x1", "night_another_node.json")
        with tempfile.TemporaryDirectory() as tmp:
            one = run("baseline", "create", *nights, "-o", os.path.join(tmp, "one.json"))
            self.assertEqual(one.returncode, 0, one.stderr)
            self.assertIn("warning: all 3 runs are of one node (GPU-935201c2-3a8c-3b93-cb3b-b64f8e41739f)", one.stderr)
            self.assertIn("add runs of other nodes", one.stderr)
            two = run("baseline", "create", *nights, another_node, "-o", os.path.join(tmp, "two.json"))
            self.assertEqual(two.returncode, 0, two.stderr)
            self.assertNotIn("of one node", two.stderr)

    def test_compare(self):
        result = run("compare", os.path.join(CHECK, "healthy_1.json"), os.path.join(CHECK, "mixed.json"), "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        comparison = json.loads(result.stdout)
        self.assertEqual(len(comparison["runs"]), 2)
        self.assertEqual(len(comparison["rows"]), 5)
        self.assertEqual(run("compare", os.path.join(CHECK, "mixed.json")).returncode, 2)

    def test_fleet(self):
        files = [os.path.join(CHECK, f"healthy_{i}.json") for i in (1, 2, 3)] + [os.path.join(CHECK, "mixed.json")]
        result = run("check", "--fleet", *files, "--json")
        report = json.loads(result.stdout)
        self.assertEqual(report["nodes"], 4)
        self.assertEqual(result.returncode, 1 if report["outliers"] else 0)
        self.assertIn("memory/write/1GiB/gpu0/bandwidth", {o["metric"] for o in report["outliers"]})
        self.assertEqual(report["hosts"], 1)
        self.assertIn("every run comes from one host", run("check", "--fleet", *files).stdout)
        with tempfile.TemporaryDirectory() as tmp:
            written = os.path.join(tmp, "fleet.json")
            self.assertEqual(run("check", "--fleet", *files, "--json-file", written).returncode, result.returncode)
            with open(written) as f:
                self.assertEqual(json.load(f), report)
        for option in ("--junit", "--markdown", "--prometheus", "--against"):
            refused = run("check", "--fleet", *files, option, os.path.join(CHECK, "healthy_1.json"))
            self.assertEqual(refused.returncode, 2, option + ": " + refused.stderr)
            self.assertIn(option + " does not apply to --fleet", refused.stderr)
        # --baseline lends the fleet the node kind's rules.
        ruled = run("check", "--fleet", *files, "--baseline", os.path.join(CHECK, "baseline.json"), "--json")
        self.assertTrue(json.loads(ruled.stdout)["kind_baseline"], ruled.stderr)

    def test_history_of_a_directory(self):
        # Ten healthy runs and the edited mixed.json: one odd run at the end is no change point.
        result = run("history", CHECK, "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        report = json.loads(result.stdout)
        self.assertEqual(report["runs"], 11)
        self.assertEqual(report["change_points"], [])

    def test_history_finds_a_step_and_when_it_happened(self):
        # Twelve nightly runs; triad loses 10 % from the seventh on, everything else stays put.
        with open(os.path.join(CHECK, "healthy_1.json")) as f:
            recorded = json.load(f)
        with tempfile.TemporaryDirectory() as directory:
            for night in range(12):
                doc = json.loads(json.dumps(recorded))
                doc["run"]["id"] = f"night-{night:02d}"
                doc["run"]["started_at"] = f"2026-11-{night + 1:02d}T02:00:00Z"
                for m in doc["metrics"]:
                    factor = (0.9 if night >= 6 and m["id"].startswith("memory/triad/") else 1.0) * (1 + 0.001 * (night % 3))
                    m["samples"] = [x * factor for x in m["samples"]]
                    m["value"] *= factor
                with open(os.path.join(directory, f"night-{night:02d}.json"), "w") as f:
                    json.dump(doc, f)
            result = run("history", directory, "--json")
            report = json.loads(result.stdout)
            self.assertEqual(result.returncode, 1, "a change for the worse exits 1: " + result.stderr)
            self.assertEqual([c["metric"] for c in report["change_points"]], ["memory/triad/1GiB/gpu0/bandwidth"])
            change = report["change_points"][0]
            self.assertTrue(change["worse"])
            self.assertAlmostEqual(change["relative_change"], -0.1, delta=0.01)
            self.assertEqual(change["first_run_after"], "night-06")


class Hardening(TemporaryFolder, RefusesInput, unittest.TestCase):
    """Bad inputs exit 2 naming the file, never crash or hang; an output never destroys an input."""

    prefix = "gpubench-hardening-"

    def setUp(self):
        super().setUp()
        self.baseline = os.path.join(CHECK, "baseline.json")

    def copy(self, name, source=None):
        path = os.path.join(self.tmp, name)
        shutil.copyfile(source or os.path.join(CHECK, name), path)
        return path

    def test_deep_nesting_exits_two_instead_of_crashing(self):
        doc = json.load(open(os.path.join(DATA, "results_h200x1_memory_only.json")))
        doc["metrics"][0]["params"]["x"] = "DEEP"
        path = os.path.join(self.tmp, "deep.json")
        with open(path, "w") as f:
            f.write(json.dumps(doc).replace('"DEEP"', "[" * 100000 + "]" * 100000))
        self.assert_rejected(run("check", path, "--baseline", self.baseline), "deep.json", "nested more than 64 deep")

    def test_a_fifo_is_refused_not_waited_on(self):
        fifo = os.path.join(self.tmp, "fifo.json")
        os.mkfifo(fifo)
        self.assert_rejected(run("check", fifo, "--baseline", self.baseline), "fifo.json", "FIFO")
        self.assert_rejected(run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline", "/dev/zero"),
                             "/dev/zero", "character device")

    def test_number_overflow_names_the_file(self):
        text = open(os.path.join(CHECK, "healthy_1.json")).read()
        path = os.path.join(self.tmp, "overflow.json")
        with open(path, "w") as f:
            f.write(re.sub(r'"value": [0-9.e+]+', '"value": 1e999', text, count=1))
        self.assert_rejected(run("check", path, "--baseline", self.baseline), "overflow.json", "number overflow")

    def test_history_folder(self):
        for i in (1, 2, 3):
            self.copy(f"healthy_{i}.json")
        os.mkfifo(os.path.join(self.tmp, "pipe.json"))
        result = run("history", self.tmp, "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("skipping " + os.path.join(self.tmp, "pipe.json") + ": is a FIFO", result.stderr)
        self.assertEqual(json.loads(result.stdout)["runs"], 3)
        for schema in (5, None):
            doc = json.load(open(os.path.join(CHECK, "healthy_1.json")))
            doc["schema"] = schema
            with open(os.path.join(self.tmp, "odd.json"), "w") as f:
                json.dump(doc, f)
            result = run("history", self.tmp, "--json")
            self.assertEqual(result.returncode, 0, "one bad file is skipped, not fatal: " + result.stderr)
            self.assertIn("skipping " + os.path.join(self.tmp, "odd.json") + ": field 'schema'", result.stderr)
            self.assertEqual(json.loads(result.stdout)["runs"], 3)
        self.assert_rejected(run("history", CHECK, "--significance", "nan"), "--significance", "finite")

    def test_history_reads_a_tree_of_runs_as_results_dir_keeps_them(self):
        # DIR/HOST/RUN.json, each run with its log folder of Google Benchmark JSON, which is not a results document.
        for i, host in ((1, "node1"), (2, "node1"), (3, "node2"), (4, "rack2/node3")):
            os.makedirs(os.path.join(self.tmp, host, f"run{i}.json.logs"))
            self.copy(f"{host}/run{i}.json", os.path.join(CHECK, f"healthy_{i}.json"))
            shutil.copyfile(os.path.join(DATA, "gbench_memory_h200.json"),
                            os.path.join(self.tmp, host, f"run{i}.json.logs", "memory.json"))
        result = run("history", self.tmp, "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout)["runs"], 4)
        self.assertNotIn("skipping", result.stderr, "log folders are not searched")

    def test_history_of_a_tree_without_runs_exits_two(self):
        os.makedirs(os.path.join(self.tmp, "node1", "empty"))
        self.copy("node1/baseline.json", self.baseline)
        self.assert_rejected(run("history", self.tmp), self.tmp, "no readable results document in the directory or its subfolders")
        self.assertIn("node1/baseline.json: not a results document", run("history", self.tmp).stderr)

    def test_history_folder_with_nothing_readable_exits_two(self):
        with open(os.path.join(self.tmp, "broken.json"), "w") as f:
            f.write("{ not json")
        self.assert_rejected(run("history", self.tmp), self.tmp, "no readable results document")

    def test_one_bad_file_in_a_baselines_folder_does_not_hide_the_matching_baseline(self):
        folder = os.path.join(self.tmp, "baselines")
        os.mkdir(folder)
        shutil.copy(self.baseline, os.path.join(folder, "good.json"))
        with open(os.path.join(folder, "broken.json"), "w") as f:
            f.write("{ not json")
        os.mkdir(os.path.join(folder, "a-folder.json"))
        result = run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline", folder)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("skipping " + os.path.join(folder, "broken.json"), result.stderr)
        os.remove(os.path.join(folder, "good.json"))
        self.assert_rejected(run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline", folder),
                             "no baseline for", "broken.json")

    def test_baseline_fields_of_the_wrong_type_exit_two(self):
        good = json.load(open(self.baseline))
        for key, value in (("created_at", None), ("description", 5), ("gpubench_version", None)):
            doc = dict(good, **{key: value})
            path = os.path.join(self.tmp, "b.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            self.assert_rejected(run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline", path), "b.json", f"'{key}'")

    def test_an_output_that_names_an_input_is_refused(self):
        runs = [self.copy(f"healthy_{i}.json") for i in (1, 2, 3)]
        before = open(runs[0]).read()
        self.assert_rejected(run("baseline", "create", *runs, "-o", runs[0]), "--output", "is the input")
        via_dots = os.path.join(self.tmp, "..", os.path.basename(self.tmp), "healthy_1.json")
        self.assert_rejected(run("check", runs[0], "--baseline", self.baseline, "--junit", via_dots), "--junit", "is the input")
        baseline = self.copy("baseline.json")
        self.assert_rejected(run("check", runs[0], "--baseline", baseline, "--markdown", baseline), "--markdown")
        same = os.path.join(self.tmp, "report")
        self.assert_rejected(run("check", runs[0], "--baseline", baseline, "--junit", same, "--markdown", same), "--markdown")
        self.assertEqual(open(runs[0]).read(), before)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["baseline.json", "healthy_1.json", "healthy_2.json", "healthy_3.json"])

    def test_a_failed_write_exits_two_naming_the_path_and_leaves_nothing(self):
        runs = [os.path.join(CHECK, f"healthy_{i}.json") for i in (1, 2, 3)]
        missing = os.path.join(self.tmp, "no-such-folder", "b.json")
        self.assert_rejected(run("baseline", "create", *runs, "-o", missing), missing, "no folder")
        folder = os.path.join(self.tmp, "a-folder")
        os.mkdir(folder)
        self.assert_rejected(run("check", runs[0], "--baseline", self.baseline, "--junit", folder), folder, "is a directory")
        if os.geteuid() != 0:  # root writes into a read-only folder regardless
            locked = os.path.join(self.tmp, "locked")
            os.mkdir(locked, 0o500)
            self.assert_rejected(run("baseline", "create", *runs, "-o", os.path.join(locked, "b.json")), "locked")
        self.assertEqual(sorted(os.listdir(self.tmp)), sorted(["a-folder"] + (["locked"] if os.geteuid() != 0 else [])))
        self.assertEqual(os.listdir(folder), [])

    def test_output_onto_a_symlink_writes_through_it(self):
        runs = [os.path.join(CHECK, f"healthy_{i}.json") for i in (1, 2, 3)]
        target = os.path.join(self.tmp, "shared", "b.json")
        os.mkdir(os.path.dirname(target))
        link = os.path.join(self.tmp, "b.json")
        os.symlink(os.path.join("shared", "b.json"), link)
        result = run("baseline", "create", *runs, "-o", link)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(os.path.islink(link))
        self.assertEqual(json.load(open(target))["schema"], "gpubench.baseline/1")
        self.assertEqual(os.listdir(os.path.dirname(target)), ["b.json"])

    def write_with_id(self, name, benchmark):
        doc = json.load(open(os.path.join(CHECK, "healthy_1.json")))
        doc["metrics"][0]["benchmark"] = benchmark
        doc["metrics"][0]["id"] = benchmark + "/bandwidth"
        return self.write_doc(name, doc)

    def test_a_duplicate_metric_cannot_hide_a_regression(self):
        # mixed.json holds a regressed write figure; a healthy copy of it appended once turned exit 1 into 0.
        doc = json.load(open(os.path.join(CHECK, "mixed.json")))
        healthy = json.load(open(os.path.join(CHECK, "healthy_1.json")))
        write_id = next(m["id"] for m in doc["metrics"] if "/write/" in m["id"])
        doc["metrics"].append(next(m for m in healthy["metrics"] if m["id"] == write_id))
        path = self.write_doc("twice.json", doc)
        self.assert_rejected(run("check", path, "--baseline", self.baseline), "twice.json", write_id)
        self.assert_rejected(run("baseline", "create", path, path, path, "-o", os.path.join(self.tmp, "b.json")),
                             "twice.json")

    def test_garbage_samples_and_empty_runs_are_refused(self):
        healthy = json.load(open(os.path.join(CHECK, "healthy_1.json")))
        doc = json.loads(json.dumps(healthy))
        doc["metrics"][0]["samples"] = [-1e308, doc["metrics"][0]["value"], 1e308]
        self.assert_rejected(run("check", self.write_doc("samples.json", doc), "--baseline", self.baseline), "samples.json",
                             "samples")
        doc = json.loads(json.dumps(healthy))
        doc["metrics"], doc["failures"], doc["skipped"] = [], [], []
        self.assert_rejected(run("check", self.write_doc("empty.json", doc), "--baseline", self.baseline), "empty.json")
        baseline = json.load(open(self.baseline))
        baseline["metrics"] = {}
        self.assert_rejected(run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline",
                                 self.write_doc("b.json", baseline)), "b.json")
        baseline = json.load(open(self.baseline))
        first = next(iter(baseline["metrics"]))
        baseline["metrics"][first]["expected"] = 1e-320
        self.assert_rejected(run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline",
                                 self.write_doc("tiny.json", baseline)), "tiny.json", "expected")

    def test_junit_stays_well_formed_xml_whatever_the_ids_hold(self):
        doc = json.load(open(os.path.join(CHECK, "healthy_1.json")))
        doc["metrics"][0]["id"] = doc["metrics"][0]["benchmark"] + "/odd\uffff\u0001<&>\"'"
        junit = os.path.join(self.tmp, "check.xml")
        result = run("check", self.write_doc("odd.json", doc), "--baseline", self.baseline, "--junit", junit)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        ET.parse(junit)  # raises on ill-formed XML

    def test_long_metric_ids_neither_crash_nor_throw(self):
        healthy = [os.path.join(CHECK, f"healthy_{i}.json") for i in (1, 2, 3)]
        long_id = self.write_with_id("long.json", "memory/" + "x" * 50000)
        result = run("compare", long_id, healthy[1], "--json")
        self.assertEqual(result.returncode, 0, result.stderr[-2000:])
        self.assertIn("x" * 50000, result.stdout)
        for digits in ("9" * 50000, "99999999999"):
            odd = self.write_with_id("odd.json", "memory/read/gpu" + digits)
            result = run("check", "--fleet", odd, *healthy, "--json")
            self.assertIn(result.returncode, (0, 1), result.stderr[-2000:])
            self.assertNotIn("error", result.stderr[-2000:])
            json.loads(result.stdout)

    def test_a_filter_is_refused_up_front_when_bad_or_costly(self):
        runs = [os.path.join(CHECK, f"healthy_{i}.json") for i in (1, 2)]
        for pattern in ("(", "(.*)*x", "(a+)+$", "a" * 600):
            self.assert_rejected(run("compare", *runs, "--filter", pattern), "--filter")
        self.assert_rejected(run("list", "--filter", "("), "--filter")
        result = run("compare", *runs, "--filter", "(read|write)/1GiB", "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(len(json.loads(result.stdout)["rows"]), 2)

    def test_an_empty_baseline_option_is_refused(self):
        self.assert_rejected(run("check", os.path.join(CHECK, "healthy_1.json"), "--baseline", ""), "--baseline")

    def test_a_signal_stops_a_folder_read_between_files(self):
        # 200 names of one 3000-metric run: seconds of reading, where a stop between two files takes milliseconds.
        doc = json.load(open(os.path.join(CHECK, "healthy_1.json")))
        doc["metrics"] = [dict(doc["metrics"][0], benchmark=f"memory/read/{i}B/gpu0", id=f"memory/read/{i}B/gpu0/bandwidth")
                          for i in range(3000)]
        big = os.path.join(self.tmp, "big.json")
        with open(big, "w") as f:
            json.dump(doc, f)
        folder = os.path.join(self.tmp, "runs")
        os.mkdir(folder)
        names = [os.path.join(folder, f"run_{i:03}.json") for i in range(200)]
        for name in names:
            os.link(big, name)
        # A stop waits at most for the file being read. How long one file takes depends on the machine (a sanitizer
        # build reads one in a second or more), so the bound is a few files' reading time, far below all 200 files'.
        timed = time.monotonic()
        subprocess.run([GPUBENCH, "compare", big, big], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        bound = 2.0 + 2 * (time.monotonic() - timed)
        for signal_number in (signal.SIGINT, signal.SIGTERM):
            for args in (("history", folder), ("compare", *names), ("check", "--fleet", *names), ("baseline", "create", *names, "-o", os.path.join(self.tmp, "b.json"))):
                process = subprocess.Popen([GPUBENCH, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                time.sleep(0.5)
                started = time.monotonic()
                process.send_signal(signal_number)
                _, err = process.communicate(timeout=120)
                self.assertEqual(process.returncode, 130, args[0] + ": " + err[-2000:])
                self.assertIn("gpubench: interrupted", err)
                self.assertLess(time.monotonic() - started, bound, args[0])

if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
