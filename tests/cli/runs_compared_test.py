#!/usr/bin/env python3
"""compare, check --against and history on recorded H200 runs (#43): two healthy nights compare with nothing clearly
worse, a run under a competing GEMM shows its GEMM figures clearly worse, a figure that measures the host is never
judged against one run, the one- against two-GPU compare keeps its table first, a slowdown under another process
names it, history says when it has too few runs and keeps two nodes named `vm` apart; and each message of the issue.

usage: runs_compared_test.py GPUBENCH_BINARY TEST_DATA_DIR
"""
import copy
import itertools
import json
import os
import re
import subprocess
import sys
import unittest

from temporary_folder import TemporaryFolder
from test_arguments import DATA, GPUBENCH

NIGHTS = [f"nightly_h200x1/night{i}.json" for i in (1, 2, 3)]
OTHER_NODE = "nightly_h200x1/night_another_node.json"
TWO_GPUS = "two_h200_quick/h200x2-quick-20261130.json"
SLOWDOWN = "slowdown_h200x1"
# The catalogue's host-bound figures (benchmarks/catalogue.cpp, node_bound): a host call per launch, graph or sync,
# allocation, pageable copies. Graph replay of 100 kernels and more is the GPU's.
HOST_BOUND = re.compile(r"^(launch/(plain_|graph_instantiate/|graph_speedup/|graph_replay/1/|launch_to_start/)|alloc/|"
                        r"sync/host_|pcie/(h2d|d2h)/pageable/)")


def run(*args, env=None):
    environment = {name: value for name, value in os.environ.items() if name != "COLUMNS"}
    environment.update(env or {})
    return subprocess.run([GPUBENCH, *args], capture_output=True, text=True, timeout=120, cwd=DATA, env=environment)


def load(path):
    with open(os.path.join(DATA, path)) as f:
        return json.load(f)


def rows_of(report):
    return {r["metric"]: r for r in report["rows"]}


class CompareJudgesAsCheckAgainst(unittest.TestCase):
    def compare(self, *runs):
        result = run("compare", *runs, "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout)

    def test_healthy_nights_of_one_node_are_nowhere_clearly_worse(self):
        for first, later in itertools.permutations(NIGHTS, 2):
            everything = self.compare(first, later)["summaries"][0]["families"][-1]
            self.assertEqual(everything["family"], "all")
            self.assertEqual(everything["clearly_worse"], 0, f"{later} against {first}")

    def test_a_run_under_a_competing_gemm_shows_its_gemm_figures_clearly_worse(self):
        for loaded in ("heavy.json", "light.json"):
            report = self.compare(f"{SLOWDOWN}/healthy.json", f"{SLOWDOWN}/{loaded}")
            for metric, row in rows_of(report).items():
                judged = row["against_first"][0]
                self.assertEqual(judged["clearly"] and judged["direction"] == "worse", metric.startswith("gemm/"),
                                 f"{loaded}: {metric}: {judged['reason']}")

    def test_the_value_check_judged_is_shown_and_marked(self):
        report = self.compare(f"{SLOWDOWN}/healthy.json", f"{SLOWDOWN}/heavy.json")
        row = rows_of(report)["gemm/bf16/8192x8192x8192/gpu0/tflops"]
        confirmations = load(f"{SLOWDOWN}/heavy.json")["confirmations"][0]["measurements"]
        values = sorted(m["value"] for m in confirmations)
        self.assertAlmostEqual(row["values"][1], (values[0] + values[-1]) / 2 if len(values) == 2 else values[len(values) // 2])
        self.assertTrue(row["against_first"][0]["remeasured"])
        text = run("compare", f"{SLOWDOWN}/healthy.json", f"{SLOWDOWN}/heavy.json").stdout
        self.assertRegex(text, r"gemm/bf16/8192x8192x8192/gpu0/tflops .* 365\.4 \*")
        self.assertIn("*: measured again by `check --confirm`", text)
        shown = run("show", f"{SLOWDOWN}/heavy.json").stdout
        self.assertIn("measured again by check --confirm", shown)
        self.assertIn("365.4", shown)

    def test_one_against_two_gpus_keeps_its_table_first_and_sums_up_the_rest(self):
        text = run("compare", NIGHTS[0], TWO_GPUS).stdout
        lines = text.splitlines()
        self.assertTrue(lines[3].startswith("metric "), "the table starts after the two runs and a blank line")
        only_in = [line for line in lines if " only in [" in line]
        families = {line.split(":")[0].strip() for line in only_in}
        self.assertEqual(len(only_in), len(families), "one line per family")
        self.assertLess(len(only_in), 15)
        report = self.compare(NIGHTS[0], TWO_GPUS)
        self.assertEqual(sum(n["figures"] for n in report["not_shared_by_family"]), len(report["not_shared"]))

    def test_host_bound_figures_across_nodes_are_marked_and_left_out_of_the_geomean(self):
        report = self.compare(NIGHTS[0], OTHER_NODE)
        for metric, row in rows_of(report).items():
            judged = row["against_first"][0]
            self.assertEqual(judged["host_bound"] == "other_node", bool(HOST_BOUND.match(metric)), metric)
        summary = report["summaries"][0]
        self.assertFalse(summary["same_node"])
        launch = next(f for f in summary["families"] if f["family"] == "launch")
        self.assertIsNotNone(launch["geomean_gain"], "graph replay of 100 kernels and more is the GPU's")
        self.assertEqual(launch["host_bound"], 14, "every other launch figure measures the host")
        text = run("compare", NIGHTS[0], OTHER_NODE).stdout
        self.assertIn("geomean leaves out the 36 host-bound figures", text)
        self.assertIn("the runs are on different nodes", text)


class HostBoundAgainstOneRun(TemporaryFolder, unittest.TestCase):
    """The rule, tried on the host-bound figures of a run it was not written beside (the two-H200 quick run): each
    moved as far as two healthy processes of one node moved them (2.6 x), none is a change; a GPU's own figure moved
    as far is."""

    prefix = "gpubench-host-bound-"

    def slowed(self, factor_of):
        document = load(TWO_GPUS)
        later = copy.deepcopy(document)
        later["run"]["id"] += "-later"
        for m in later["metrics"]:
            factor = factor_of(m["id"])
            if m["better"] == "higher":
                factor = 1 / factor
            m["samples"] = [x * factor for x in m["samples"]]
            m["value"] *= factor
            for key in ("median", "mean", "min", "max", "stddev", "mad"):
                m["statistics"][key] *= factor
        return self.write("later.json", json.dumps(later))

    def test_a_host_bound_figure_is_never_a_change_against_one_run(self):
        later = self.slowed(lambda metric: 2.6 if HOST_BOUND.match(metric) else 1.0)
        report = json.loads(run("compare", TWO_GPUS, later, "--json").stdout)
        host_bound = [r for r in report["rows"] if HOST_BOUND.match(r["metric"])]
        self.assertGreater(len(host_bound), 40)
        for row in host_bound:
            judged = row["against_first"][0]
            self.assertEqual(judged["host_bound"], "not_judged_against_one_run", row["metric"])
            self.assertFalse(judged["clearly"], row["metric"])
        check = run("check", later, "--against", os.path.join(DATA, TWO_GPUS), "--json")
        self.assertEqual(check.returncode, 0, check.stdout[-2000:])
        for verdict in json.loads(check.stdout)["metrics"]:
            if HOST_BOUND.match(verdict["id"]):
                self.assertEqual(verdict["verdict"], "informational", verdict["id"])
                self.assertIn("one run cannot tell a change from the next process", verdict["reason"])

    def test_a_gpu_figure_slowed_as_far_is_clearly_worse(self):
        later = self.slowed(lambda metric: 2.6 if metric.startswith("memory/") else 1.0)
        report = json.loads(run("compare", TWO_GPUS, later, "--json").stdout)
        for row in report["rows"]:
            if row["metric"].startswith("memory/"):
                self.assertTrue(row["against_first"][0]["clearly"], row["metric"])


class ContentionNamesItsCause(TemporaryFolder, unittest.TestCase):
    prefix = "gpubench-contention-"

    def setUp(self):
        super().setUp()
        heavy = load(f"{SLOWDOWN}/heavy.json")
        for family in heavy["families"]:
            if family["family"] == "gemm":
                family["telemetry"]["gpu0"]["processes"] = [
                    {"pid": 4242, "name": "python3", "kind": "compute", "used_memory_bytes": 21474836480,
                     "first_seen_s": 0.25, "last_seen_s": 30.0, "samples": 120}]
        self.heavy = self.write("heavy.json", json.dumps(heavy))
        self.sentence = "another process (pid 4242, python3, 20.0 GiB) used GPU 0 during gemm"

    def test_check_names_the_process_beside_a_regression_under_contention(self):
        result = run("check", self.heavy, "--baseline", f"{SLOWDOWN}/baseline.json", "--no-color")
        self.assertEqual(result.returncode, 1, "a regression under contention still fails")
        self.assertRegex(result.stdout, r"regression under contention +gemm/bf16/8192x8192x8192/gpu0/tflops")
        self.assertIn("not idle: " + self.sentence, result.stdout)
        self.assertIn("FAIL: 2 regressions under contention (another process used the GPU), 0 GPU regressions",
                      result.stdout)
        verdicts = json.loads(run("check", self.heavy, "--baseline", f"{SLOWDOWN}/baseline.json", "--json").stdout)
        gemm = next(m for m in verdicts["metrics"] if m["id"] == "gemm/bf16/8192x8192x8192/gpu0/tflops")
        self.assertEqual(gemm["contention"], self.sentence)

    def test_compare_and_history_name_it_too(self):
        text = run("compare", os.path.join(DATA, SLOWDOWN, "healthy.json"), self.heavy).stdout
        self.assertRegex(text, r"gemm/bf16/8192x8192x8192/gpu0/tflops .* worse, clearly, under contention")
        self.assertIn("under contention: " + self.sentence + " in [2]", text)
        self.assertNotRegex(text, r"memory/triad/1GiB/gpu0/bandwidth .* under contention")


class History(TemporaryFolder, unittest.TestCase):
    prefix = "gpubench-history-43-"

    def nights(self, names):
        for name in names:
            self.write(os.path.basename(name), json.dumps(load(name)))
        return json.loads(run("history", self.tmp, "--json").stdout)

    def test_two_runs_are_too_few_and_it_says_how_many_it_needs(self):
        report = self.nights(NIGHTS[:2])
        self.assertEqual(report["change_points"], [])
        self.assertIn("too few runs to find a change: the longest series has 2 runs of one node, and a change point "
                      f"needs {report['runs_needed']}", report["too_few_runs"])
        self.assertGreaterEqual(report["runs_needed"], 6)
        self.assertIn("too few runs", run("history", self.tmp).stdout)

    def test_two_nodes_named_vm_stay_apart(self):
        report = self.nights(NIGHTS + [OTHER_NODE])
        self.assertEqual(report["nodes"], 2, "both hosts are `vm`; their GPUs differ")
        self.assertEqual(report["longest_series"], 3)

    def test_a_change_within_the_tolerance_is_not_reported(self):
        # Eight nights of one node; from the fifth on every figure 1 % slower, within every tolerance (3 % at least).
        night = load(NIGHTS[0])
        for i in range(8):
            doc = copy.deepcopy(night)
            doc["run"]["id"] = f"night-{i}"
            doc["run"]["started_at"] = f"2026-12-{i + 1:02d}T02:00:00Z"
            for m in doc["metrics"]:
                factor = (0.99 if i >= 4 else 1.0) * (1 + 0.0001 * (i % 3))
                m["value"] *= factor
                m["samples"] = [x * factor for x in m["samples"]]
            self.write(f"night-{i}.json", json.dumps(doc))
        result = run("history", self.tmp, "--significance", "0.5", "--json")
        self.assertEqual(result.returncode, 0, result.stdout[-1000:])
        report = json.loads(result.stdout)
        self.assertEqual(report["change_points"], [])
        self.assertGreater(report["within_tolerance"], 0, "the test finds the 1 % step, the tolerance sets it aside")


class Console(unittest.TestCase):
    def test_reasons_fit_the_terminal_and_are_whole_with_all(self):
        args = ("check", f"{SLOWDOWN}/heavy.json", "--baseline", f"{SLOWDOWN}/baseline.json", "--no-color")
        for width in (160, 220):  # the columns before the reason take 119
            narrow = run(*args, env={"COLUMNS": str(width)}).stdout
            table = narrow.split("\n\n")[1].splitlines()
            self.assertTrue(all(len(line) <= width for line in table), "\n".join(table))
        whole = run(*args, "--all", env={"COLUMNS": "160"}).stdout
        self.assertIn("(the run measured 368.1 TFLOP/s first, regression there)", whole)

    def test_one_change_per_row_the_value_shown(self):
        report = json.loads(run("check", f"{SLOWDOWN}/heavy.json", "--baseline", f"{SLOWDOWN}/baseline.json",
                                "--json").stdout)
        gemm = next(m for m in report["metrics"] if m["id"] == "gemm/bf16/8192x8192x8192/gpu0/tflops")
        change = f"{100 * gemm['change']:+.1f} %"
        self.assertAlmostEqual(gemm["change"], gemm["value"] / gemm["expected"] - 1, delta=1e-9)
        self.assertIn(change, gemm["reason"])
        self.assertEqual(re.findall(r"[+-]\d+\.\d %", gemm["reason"]), [change], gemm["reason"])

    def test_the_kernels_line_lists_its_figures(self):
        text = run("check", NIGHTS[1], "--against", NIGHTS[0], "--no-color").stdout
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("kernels  "))
        count = int(lines[start].split()[1])
        listed = lines[start + 1:start + 1 + count]
        self.assertEqual(len(listed), count)
        for line in listed:
            self.assertRegex(line, r"^  \S+/gpu0/\S+: .+ -> ")


class Messages(TemporaryFolder, unittest.TestCase):
    prefix = "gpubench-messages-43-"

    def refused(self, result, *fragments):
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        for fragment in fragments:
            self.assertIn(fragment, result.stderr)

    def test_a_watch_document_or_a_baseline_given_to_check(self):
        self.refused(run("check", "watch/memory_bound_h200.json"), "this is a watch document; `check`",
                     "takes a results document")
        self.refused(run("check", "nightly_h200x1/baseline.json"), "this is a baseline; `check`",
                     "takes a results document")

    def test_a_run_given_as_baseline_is_pointed_to_against(self):
        self.refused(run("check", NIGHTS[0], "--baseline", NIGHTS[1]), "this is the results of a run, not a baseline",
                     "give it with --against")

    def test_an_unwritable_output_names_the_path_and_what_to_do(self):
        self.refused(run("report", NIGHTS[0], "-o", "/proc/x.html"), "cannot write /proc/x.html",
                     "give a path in a folder that exists and that you may write to")

    def test_no_driver_is_named_as_such(self):
        if any(os.path.exists(os.path.join(d, lib)) for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib")
               for lib in ("libcuda.so.1", "libnvidia-ml.so.1")):
            self.skipTest("an NVIDIA driver's libraries are installed here")
        result = run("run", "--suite", "quick", "-o", os.path.join(self.tmp, "r.json"))
        self.assertEqual(result.returncode, 3, result.stderr)
        self.assertIn("no NVIDIA driver found (libcuda.so.1 / libnvidia-ml.so.1 not loadable)", result.stderr)
        self.assertNotIn("cudaErrorInsufficientDriver", result.stderr)

    def test_one_figure_is_singular(self):
        # FP8's runs spread 0.5x..1.5x: a band too wide to catch a halved link, so the figure cannot gate.
        with open(os.path.join(DATA, SLOWDOWN, "baseline.json")) as f:
            baseline = json.load(f)
        fp8 = baseline["metrics"]["gemm/fp8_e4m3/8192x8192x8192/gpu0/tflops"]
        fp8["run_values"] = [v * (0.5 if i % 2 else 1.5) for i, v in enumerate(fp8["run_values"])]
        fp8["spread"] = 0.5 * fp8["expected"]
        noisy = self.write("noisy_fp8_baseline.json", json.dumps(baseline))
        text = run("check", f"{SLOWDOWN}/heavy.json", "--baseline", noisy).stdout
        self.assertIn("1 figure that decides acceptance could not be judged", text)
        self.assertIn("FAIL (NOT ALL JUDGED): 1 regression,", text)

    def test_markdown_code_spans_hold_no_escapes(self):
        markdown = os.path.join(self.tmp, "check.md")
        run("check", "check_glance/night1_memory_only.json", "--baseline", "nightly_h200x1/baseline.json",
            "--markdown", markdown)
        with open(markdown) as f:
            text = f.read()
        for line in text.splitlines():
            if line.startswith("|"):
                continue  # a pipe in a table cell is escaped, as GitHub's tables need, and not shown
            for span in re.findall(r"`+([^`]*)`+", line):
                self.assertNotIn("\\", span, line)
        job = os.path.join(self.tmp, "io_starved_job.json")
        with open(os.path.join(DATA, "watch", "memory_bound_h200.json")) as f, open(job, "w") as out:
            out.write(f.read())
        shown = run("show", job, "--format", "markdown").stdout
        self.assertIn("`" + job + "`", shown)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
