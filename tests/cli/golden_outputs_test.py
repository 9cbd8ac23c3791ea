#!/usr/bin/env python3
"""Golden-file tests of `gpubench show` and `gpubench compare` on recorded data: each case runs the binary in the
test data folder, so that the paths it prints are relative and the same on every machine, and compares what it
prints with a file in tests/data/show/golden/. JSON is compared value by value (numbers to a relative 1e-12, which
leaves the last bit of a computed figure to the compiler); everything else byte for byte. Also: each format read
back by a parser, and show's refusals of bad input. Standard library only.

usage: golden_outputs_test.py GPUBENCH_BINARY TEST_DATA_DIR [--update]
       --update rewrites the golden files from what the binary prints now; read the diff before committing it.
"""
import csv
import io
import json
import math
import os
import shutil
import subprocess
import sys
import unittest

from temporary_folder import TemporaryFolder
from test_arguments import DATA, GPUBENCH, UPDATE

GOLDEN = os.path.join(DATA, "show", "golden")

TWO = "show/two_h200.json"
LATER = "show/two_h200_later.json"
NIGHT1 = "nightly_h200x1/night1.json"  # quick suite, one H200, 3 repetitions
NIGHT2 = "nightly_h200x1/night2.json"
CASES = {
    "show_two_h200.txt": ["show", TWO],
    "show_two_h200.csv": ["show", TWO, "--format", "csv"],
    "show_two_h200.json": ["show", TWO, "--format", "json"],
    "show_two_h200.md": ["show", TWO, "--format", "markdown"],
    "show_two_h200_filtered.txt": ["show", TWO, "--filter", "latency|tree/simple/(8B|1GiB)/in_place"],
    "show_memory_only.txt": ["show", "results_h200x1_memory_only.json"],
    "show_mixed.txt": ["show", "check/mixed.json"],
    "show_mixed.md": ["show", "check/mixed.json", "--format", "markdown"],
    "show_one_h200_night.txt": ["show", NIGHT1],
    "compare_two_nights.txt": ["compare", TWO, LATER],
    "compare_two_nights.json": ["compare", TWO, LATER, "--json"],
    "compare_three_runs.txt": ["compare", "check/healthy_1.json", "check/mixed.json", "check/healthy_2.json"],
    "compare_quick_nights.txt": ["compare", NIGHT1, NIGHT2],
}


def run(*args):
    # compare takes its rules from the node kind's baseline where check finds it: the dated copy here, so that what
    # it prints does not move with the shipped baselines or name a path of this machine.
    environment = dict(os.environ, GPUBENCH_BASELINES="baselines_20261202")
    return subprocess.run([GPUBENCH, *args], capture_output=True, text=True, timeout=120, cwd=DATA, env=environment)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def same_json(expected, actual, where="$"):
    """'' when equal, numbers to a relative 1e-12; otherwise where they first differ."""
    if is_number(expected) and is_number(actual):
        return "" if math.isclose(expected, actual, rel_tol=1e-12) else f"{where}: {expected!r} != {actual!r}"
    if type(expected) is not type(actual):
        return f"{where}: {expected!r} != {actual!r}"
    if isinstance(expected, dict):
        if expected.keys() != actual.keys():
            return f"{where}: keys {sorted(expected)} != {sorted(actual)}"
        pairs = [(expected[k], actual[k], f"{where}.{k}") for k in expected]
    elif isinstance(expected, list):
        if len(expected) != len(actual):
            return f"{where}: {len(expected)} items != {len(actual)}"
        pairs = [(e, a, f"{where}[{i}]") for i, (e, a) in enumerate(zip(expected, actual))]
    else:
        return "" if expected == actual else f"{where}: {expected!r} != {actual!r}"
    for e, a, inner in pairs:
        difference = same_json(e, a, inner)
        if difference:
            return difference
    return ""


class Golden(unittest.TestCase):
    def test_outputs_match_the_golden_files(self):
        for name, args in CASES.items():
            with self.subTest(golden=name):
                result = run(*args)
                self.assertEqual(result.returncode, 0, result.stderr)
                path = os.path.join(GOLDEN, name)
                if UPDATE:
                    with open(path, "w") as f:
                        f.write(result.stdout)
                    continue
                with open(path) as f:
                    expected = f.read()
                if name.endswith(".json"):
                    self.assertEqual(same_json(json.loads(expected), json.loads(result.stdout)), "", " ".join(args))
                else:
                    self.assertEqual(result.stdout, expected, " ".join(args) + f": differs from {path}")

    def test_every_golden_file_has_a_case(self):
        if UPDATE:
            self.skipTest("the golden files are being written")
        self.assertEqual(sorted(os.listdir(GOLDEN)), sorted(CASES))


class Formats(unittest.TestCase):
    """What the golden files hold, read back: the same tables in every format, each well formed."""

    @classmethod
    def setUpClass(cls):
        cls.json = json.loads(run("show", TWO, "--format", "json").stdout)

    def test_json_shape(self):
        self.assertEqual(self.json["schema"], "gpubench.show/1")
        self.assertEqual(self.json["run"]["gpus"], "2 x NVIDIA H200")
        kinds = [t["kind"] for t in self.json["tables"]]
        self.assertEqual(kinds.count("collective"), 2)
        self.assertEqual(kinds.count("peer_matrix"), 11)
        self.assertEqual(kinds.count("size_sweep"), 1)
        self.assertEqual(kinds[-1], "list")
        for table in self.json["tables"]:
            for row in table["rows"]:
                self.assertEqual(len(row), len(table["columns"]), table["title"])

    def test_collective_as_nccl_tests_prints_it(self):
        ring = next(t for t in self.json["tables"] if t["title"].startswith("nccl allreduce, algorithm ring"))
        names = [(c["group"], c["name"]) for c in ring["columns"]]
        self.assertEqual(names, [("", "size"), ("", "count"), ("", "type")] +
                         [(g, n) for g in ("out_of_place", "in_place") for n in ("time", "algbw", "busbw")])
        gib = next(r for r in ring["rows"] if r[0] == 1 << 30)
        self.assertEqual(gib[1:3], [(1 << 30) // 4, "float32"])
        time_us, algbw, busbw = gib[3:6]
        self.assertAlmostEqual(busbw, algbw, delta=1e-9, msg="two ranks: 2(n-1)/n = 1")
        self.assertAlmostEqual(time_us, (1 << 30) / (algbw * 1e3), delta=1e-6)
        with open(os.path.join(DATA, TWO)) as f:
            recorded = {m["id"]: m for m in json.load(f)["metrics"]}
        self.assertAlmostEqual(busbw, recorded["nccl/allreduce/ring/simple/1GiB/out_of_place/busbw"]["value"], delta=1e-9)

    def test_peer_matrix_rows_are_the_source(self):
        ce = next(t for t in self.json["tables"] if t["title"].startswith("p2p/ce_unidir/1GiB/"))
        with open(os.path.join(DATA, TWO)) as f:
            recorded = {m["id"]: m["value"] for m in json.load(f)["metrics"]}
        self.assertEqual(ce["rows"][0], ["gpu0", None, recorded["p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth"]])
        self.assertEqual(ce["rows"][1], ["gpu1", recorded["p2p/ce_unidir/1GiB/gpu1-gpu0/bandwidth"], None])
        self.assertEqual(ce["unit"], "GB/s")

    def test_csv_is_one_table_a_row_per_metric(self):
        columns = ["run_id", "host", "started_at", "id", "family", "gpu", "value", "unit", "better", "repetitions",
                   "min", "max", "cv", "peak", "fraction_of_peak", "sm_clock_mhz", "throttled", "measured_as"]
        for path in (TWO, NIGHT1):
            with open(os.path.join(DATA, path)) as f:
                document = json.load(f)
            reader = csv.DictReader(io.StringIO(run("show", path, "--format", "csv").stdout))
            self.assertEqual(reader.fieldnames, columns, "fixed columns, docs/reports.md")
            rows = list(reader)
            self.assertEqual([r["id"] for r in rows], [m["id"] for m in document["metrics"]], path)
            for row, metric in zip(rows, document["metrics"]):
                self.assertEqual(row["run_id"], document["run"]["id"])
                self.assertEqual(row["family"], metric["family"])
                self.assertEqual(row["unit"], metric["unit"])
                self.assertEqual(int(row["repetitions"]), len(metric["samples"]))
                self.assertTrue(math.isclose(float(row["value"]), metric["value"], rel_tol=1e-5), metric["id"])
                if metric.get("peak") is None:
                    self.assertEqual((row["peak"], row["fraction_of_peak"]), ("", ""), metric["id"])
                else:
                    self.assertTrue(math.isclose(float(row["fraction_of_peak"]), metric["value"] / metric["peak"],
                                                 rel_tol=1e-5), metric["id"])
        gemm = next(r for r in csv.DictReader(io.StringIO(run("show", NIGHT1, "--format", "csv").stdout))
                    if r["id"] == "gemm/burst/bf16/8192x8192x8192/gpu0/tflops")
        self.assertEqual(gemm["measured_as"], "burst from idle, 8192x8192x8192, algo 66 tile 201")

    def test_one_gpu_skips_are_a_line_per_reason(self):
        text = run("show", NIGHT1).stdout
        with open(os.path.join(DATA, NIGHT1)) as f:
            skipped = json.load(f)["skipped"]
        reasons = {s["reason"] for s in skipped}
        self.assertEqual(reasons, {"needs two GPUs; 1 selected"})
        self.assertEqual(text.count("needs two GPUs; 1 selected"), 1, text)
        self.assertRegex(text, r"\nneeds two GPUs; 1 selected +%d +p2p, nccl\n" % len(skipped))
        self.assertLess(len(text.splitlines()), 100, "202 lines when each skip had its own")

    def test_markdown_tables_are_well_formed(self):
        lines = run("show", TWO, "--format", "markdown").stdout.splitlines()
        headings = [l for l in lines if l.startswith("#### ")]
        self.assertEqual(len(headings), len(self.json["tables"]))
        for line in lines:
            if line.startswith("|"):
                cells = line.replace("\\|", "").count("|")
                self.assertGreaterEqual(cells, 3, line)
        self.assertIn("p2p/latency/\\*/latency", "\n".join(headings), "a '*' starts no emphasis")

    def test_compare_json_labels_and_judges_each_run(self):
        report = json.loads(run("compare", TWO, LATER, "--json").stdout)
        self.assertEqual([r["key"] for r in report["runs"]], ["[1]", "[2]"])
        self.assertEqual(report["runs"][1]["path"], LATER)
        self.assertEqual(report["runs"][1]["run_id"], "20261201T020000Z-vm-2718")
        self.assertEqual(report["runs"][1]["started_at"], "2026-12-01T02:00:00Z")
        rows = {r["metric"]: r for r in report["rows"]}
        ring = rows["nccl/allreduce/ring/simple/1GiB/out_of_place/busbw"]["against_first"][0]
        self.assertEqual((ring["direction"], ring["noise"]), ("worse", "beyond"))
        self.assertAlmostEqual(ring["p_value"], 2 / 252, delta=1e-12)
        self.assertEqual(ring["repetitions"], [5, 5])
        gemm = rows["gemm/bf16/8192x8192x8192/gpu1/tflops"]["against_first"][0]
        self.assertEqual((gemm["direction"], gemm["noise"]), ("better", "beyond"))
        latency = rows["p2p/latency/gpu0-gpu1/latency"]["against_first"][0]
        self.assertEqual((latency["direction"], latency["noise"]), ("worse", "within"), "a longer time is worse")
        self.assertEqual(report["noise_test"]["alpha"], 0.05)

    def test_compare_says_too_few_repetitions_rather_than_a_p_value(self):
        report = json.loads(run("compare", "check/healthy_1.json", "check/mixed.json", "--json").stdout)
        write = next(r for r in report["rows"] if r["metric"] == "memory/write/1GiB/gpu0/bandwidth")["against_first"][0]
        repetitions_test = {k: write[k] for k in ("run", "direction", "noise", "p_value", "repetitions", "apart")}
        self.assertEqual(repetitions_test, {"run": "[2]", "direction": "worse", "noise": "too_few_repetitions",
                                            "p_value": None, "repetitions": [3, 3], "apart": True})
        self.assertEqual((write["verdict"], write["clearly"]), ("regression", True), "-10 %: as check judges it")


class CompareQuickRuns(unittest.TestCase):
    """Two quick runs (3 repetitions a side): what can be said is said once, and each family is summarised."""

    @classmethod
    def setUpClass(cls):
        cls.text = run("compare", NIGHT1, NIGHT2).stdout
        cls.report = json.loads(run("compare", NIGHT1, NIGHT2, "--json").stdout)

    def test_the_judgements_are_explained_once_not_on_every_row(self):
        self.assertEqual(self.text.count("clearly: as `gpubench check RUN --against [1]` judges it"), 1, self.text)
        self.assertEqual(self.text.count("host-bound, not judged: "), 1)
        rows = [r["against_first"][0] for r in self.report["rows"]]
        with open(os.path.join(DATA, NIGHT1)) as f:
            first = {m["id"]: m["samples"] for m in json.load(f)["metrics"]}
        with open(os.path.join(DATA, NIGHT2)) as f:
            later = {m["id"]: m for m in json.load(f)["metrics"]}
        for row, judged in zip(self.report["rows"], rows):
            if judged["remeasured"]:
                continue  # judged by the fresh processes' median, whose samples are the processes'
            a, b = first[row["metric"]], later[row["metric"]]["samples"]
            self.assertEqual(judged["apart"], max(a) < min(b) or max(b) < min(a), row["metric"])

    def test_a_ratio_that_rounds_to_one_is_the_same(self):
        for row in self.report["rows"]:
            ratio, direction = row["ratios"][1], row["against_first"][0]["direction"]
            self.assertEqual(direction == "same", abs(ratio - 1) < 0.0005, f"{row['metric']}: {ratio} {direction}")
        slowdown = next(r for r in self.report["rows"] if r["metric"] == "sync/device_slowdown/256MiB/gpu0/slowdown")
        self.assertNotEqual(slowdown["values"][0], slowdown["values"][1], "not equal, yet 1.000")
        self.assertEqual(slowdown["against_first"][0]["direction"], "same")

    def test_it_ends_with_a_summary_per_family_counted_by_each_metrics_direction(self):
        last = self.text.rstrip("\n").split("\n\n")[-1].splitlines()
        self.assertEqual(last[0], "Per family, [2] against [1]:")
        self.assertTrue(last[-2].startswith("all "), last[-2])
        self.assertTrue(last[-1].startswith("geomean leaves out the 36 host-bound figures"), last[-1])
        (summary,) = self.report["summaries"]
        self.assertEqual(summary["run"], "[2]")
        families = {f["family"]: f for f in summary["families"]}
        rows = self.report["rows"]
        self.assertEqual(sorted(families), sorted({r["metric"].split("/")[0] for r in rows} | {"all"}))
        for name, family in families.items():
            mine = [r for r in rows if name == "all" or r["metric"].split("/")[0] == name]
            directions = [r["against_first"][0]["direction"] for r in mine]
            self.assertEqual((family["metrics"], family["better"], family["same"], family["worse"]),
                             (len(mine), directions.count("better"), directions.count("same"),
                              directions.count("worse")), name)
            judged = [r for r in mine if not r["against_first"][0]["host_bound"]]
            self.assertEqual(family["host_bound"], len(mine) - len(judged), name)
            gains = [r["ratios"][1] if r["better"] == "higher" else 1 / r["ratios"][1] for r in judged]
            if gains:
                self.assertAlmostEqual(family["geomean_gain"], math.exp(sum(map(math.log, gains)) / len(gains)),
                                       delta=1e-12, msg=name)
            else:
                self.assertIsNone(family["geomean_gain"], name)
            clearly_worse = sum(1 for r in mine if r["against_first"][0]["direction"] == "worse"
                                and r["against_first"][0]["clearly"])
            self.assertEqual(family["clearly_worse"], clearly_worse, name)
        self.assertEqual(families["all"]["clearly_worse"], 0, "two healthy nights of one node")
        self.assertIsNone(families["alloc"]["geomean_gain"], "night 2's allocations took about twice as long: host-bound")
        gemm = families["gemm"]
        printed = next(line.split() for line in last if line.startswith("gemm "))
        self.assertEqual(printed, ["gemm"] + [str(gemm[k]) for k in ("metrics", "better", "same", "worse",
                                                                    "clearly_better", "clearly_worse", "host_bound")]
                         + [f"{gemm['geomean_gain']:.3f}"])

    def test_a_sum_over_a_nodes_gpus_is_not_compared_between_nodes_of_other_gpu_counts(self):
        report = json.loads(run("compare", NIGHT1, TWO, "--json").stdout)
        summed = "pcie/bidirectional/pinned/1GiB/all_gpus/bandwidth"
        row = next(r for r in report["rows"] if r["metric"] == summed)["against_first"][0]
        self.assertEqual(row["direction"], "not_comparable")
        self.assertEqual(row["not_comparable"], "a sum over all GPUs of the node: [1] ran on 1 GPU, [2] on 2 GPUs")
        families = {f["family"]: f for f in report["summaries"][0]["families"]}
        self.assertEqual(families["pcie"]["not_comparable"], 1)
        pcie_rows = sum(1 for r in report["rows"] if r["metric"].startswith("pcie/"))
        self.assertEqual(families["pcie"]["metrics"], pcie_rows - 1, "the sum is not counted as compared")
        text = run("compare", NIGHT1, TWO).stdout
        self.assertRegex(text, summed + r" .* not comparable \(1 and 2 GPUs\)\n")
        same_count = json.loads(run("compare", TWO, LATER, "--json").stdout)
        row = next(r for r in same_count["rows"] if r["metric"] == summed)["against_first"][0]
        self.assertEqual(row["direction"], "same", "two nodes of two GPUs each: compared")


class CompareAFolder(TemporaryFolder, unittest.TestCase):
    """compare, like history, takes a folder: its runs, searched with its subfolders, oldest first; what is not a
    results document is named and passed over."""

    prefix = "gpubench-compare-folder-"

    def test_a_folder_is_its_runs_oldest_first(self):
        os.makedirs(os.path.join(self.tmp, "vm"))
        nights = ["night3.json", "night1.json", "night2.json"]
        for night in nights:
            shutil.copy(os.path.join(DATA, "nightly_h200x1", night), os.path.join(self.tmp, "vm", "x-" + night))
        shutil.copy(os.path.join(DATA, "nightly_h200x1", "baseline.json"), self.tmp)
        os.makedirs(os.path.join(self.tmp, "vm", "x-night1.json.logs"))
        self.write("vm/x-night1.json.logs/memory.json", "not JSON: a family's raw output")
        folder = run("compare", self.tmp, "--json")
        self.assertEqual(folder.returncode, 0, folder.stderr)
        self.assertIn("compare: skipping " + os.path.join(self.tmp, "baseline.json") + ": not a results document",
                      folder.stderr)
        self.assertNotIn("memory.json", folder.stderr, "runs' log folders are left out, as history leaves them")
        by_folder = json.loads(folder.stdout)
        self.assertEqual([os.path.basename(r["path"]) for r in by_folder["runs"]],
                         ["x-night1.json", "x-night2.json", "x-night3.json"])
        by_files = json.loads(run("compare", NIGHT1, NIGHT2, "nightly_h200x1/night3.json", "--json").stdout)
        self.assertEqual(by_folder["rows"], by_files["rows"])
        self.assertEqual(by_folder["summaries"], by_files["summaries"])
        mixed = json.loads(run("compare", TWO, os.path.join(self.tmp, "vm"), "--json").stdout)
        self.assertEqual(len(mixed["runs"]), 4, "a file and a folder: the file first, then the folder's runs")
        self.assertEqual(mixed["runs"][0]["path"], TWO)

    def test_a_folder_without_a_run_is_refused(self):
        self.write("b.json", "{}")
        result = run("compare", self.tmp, TWO)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("no readable results document in the directory or its subfolders", result.stderr)
        single = run("compare", os.path.join(DATA, "nightly_h200x1"))
        self.assertEqual(single.returncode, 0, "a folder of several runs is enough on its own")


class ShowRefuses(TemporaryFolder, unittest.TestCase):
    """Bad input exits 2, naming the file or the option and what to do."""

    prefix = "gpubench-show-test-"

    def assert_refused(self, result, *words):
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertEqual(result.stdout, "")
        for word in words:
            self.assertIn(word, result.stderr)

    def test_a_missing_file(self):
        missing = os.path.join(self.tmp, "no-such.json")
        self.assert_refused(run("show", missing), missing, "cannot open", "check the path")

    def test_not_a_results_document(self):
        self.assert_refused(run("show", os.path.join(DATA, "check", "baseline.json")), "baseline.json", "field 'schema'",
                            "'gpubench.baseline/1', not a results document", "gpubench run -o FILE")
        self.assert_refused(run("show", self.write("other.json", '{"benchmarks": []}')), "other.json", "field 'schema'",
                            "not a gpubench results document")
        self.assert_refused(run("show", self.write("broken.json", '{"schema": "gpubench.results/1", ')), "broken.json",
                            "not valid JSON")
        with open(os.path.join(DATA, TWO)) as f:
            doc = json.load(f)
        doc["metrics"][3]["value"] = "fast"
        self.assert_refused(run("show", self.write("edited.json", json.dumps(doc))), "edited.json", "metrics[3].value")

    def test_json_is_format_json_as_in_every_command(self):
        self.assertEqual(run("show", TWO, "--json").stdout, run("show", TWO, "--format", "json").stdout)

    def test_bad_options(self):
        self.assert_refused(run("show", TWO, "--format", "xml"), "--format")
        self.assert_refused(run("show", TWO, "--json", "--format", "csv"), "--format")
        self.assert_refused(run("show", TWO, "--filter", "(a+)*"), "--filter")
        self.assert_refused(run("show"), "results")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
