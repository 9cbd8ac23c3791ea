#!/usr/bin/env python3
"""check --fleet end to end on real nights: four healthy one-H200 quick runs from two nodes
(tests/data/nightly_h200x1: night1-3 on one GPU, night_another_node on another) pass as a fleet, with the host-bound
figures counted as not judged; a copy of one of them with every GEMM figure 10 % slower fails it, on GEMM alone.

usage: fleet_nights_test.py GPUBENCH_BINARY TEST_DATA_DIR
"""
import json
import os
import subprocess
import sys
import unittest

from temporary_folder import TemporaryFolder

GPUBENCH = sys.argv[1] if len(sys.argv) > 1 else "build/gpubench"
DATA = sys.argv[2] if len(sys.argv) > 2 else "tests/data"
NIGHTS = [os.path.join(DATA, "nightly_h200x1", name)
          for name in ("night1.json", "night2.json", "night3.json", "night_another_node.json")]


def run(*args):
    return subprocess.run([GPUBENCH, *args], capture_output=True, text=True, timeout=120)


def slower_at_gemm(path, factor):
    """The results document at `path` with every repetition of every GEMM figure multiplied by `factor`."""
    with open(path) as f:
        doc = json.load(f)
    for metric in doc["metrics"]:
        if not metric["id"].startswith("gemm/"):
            continue
        metric["samples"] = [s * factor for s in metric["samples"]]
        metric["value"] *= factor
        for key in ("median", "mean", "min", "max", "mad", "stddev"):
            metric["statistics"][key] *= factor
        if "efficiency" in metric:
            metric["efficiency"] *= factor
    doc["run"]["id"] += "-slower"
    return doc


class HealthyNightsAsAFleet(TemporaryFolder, unittest.TestCase):
    def test_four_healthy_nights_of_two_nodes_pass(self):
        result = run("check", "--fleet", *NIGHTS, "--json")
        self.assertEqual(result.returncode, 0, result.stdout)
        report = json.loads(result.stdout)
        self.assertEqual(report["outliers"], [])
        self.assertEqual(report["nodes"], 4)
        self.assertEqual(report["distinct_nodes"], 2, "the nights name one host, vm, but ran on two GPUs")
        self.assertGreater(report["not_judged_counts"]["host_bound"], 30)
        host_bound = [f for f in report["not_judged"] if f["because"] == "host_bound"]
        self.assertEqual(len(host_bound), report["not_judged_counts"]["host_bound"])
        self.assertIn("alloc/malloc_async/2MiB/gpu0/time_per_call", {f["metric"] for f in host_bound})
        self.assertIn("sync/host_stream_ordered/10000/gpu0/time_per_launch", {f["metric"] for f in host_bound})
        text = run("check", "--fleet", *NIGHTS)
        self.assertEqual(text.returncode, 0, text.stdout)
        self.assertIn("4 runs from 2 nodes", text.stdout)
        self.assertIn("%d host-bound figures not judged across nodes" % report["not_judged_counts"]["host_bound"],
                      text.stdout)
        self.assertIn("no outliers", text.stdout)
        self.assertNotIn("every run comes from one host", text.stdout)

    def test_a_night_ten_percent_slower_at_gemm_fails_on_gemm(self):
        slowed = self.write_doc("slower.json", slower_at_gemm(NIGHTS[3], 0.90))
        written = os.path.join(self.tmp, "fleet.json")
        result = run("check", "--fleet", *NIGHTS[:3], slowed, "--json", "--json-file", written)
        self.assertEqual(result.returncode, 1, result.stdout)
        report = json.loads(result.stdout)
        with open(written) as f:
            self.assertEqual(json.load(f), report)
        self.assertGreaterEqual(len(report["outliers"]), 8)
        for outlier in report["outliers"]:
            self.assertEqual(outlier["source"], slowed)
            self.assertTrue(outlier["metric"].startswith("gemm/"), outlier)
            self.assertLess(outlier["deviation"], -0.05, outlier)
            self.assertGreater(abs(outlier["deviation"]), outlier["noise"], outlier)
        self.assertIn("gemm/fp8_e4m3/8192x8192x8192/gpu0/tflops", {o["metric"] for o in report["outliers"]})
        text = run("check", "--fleet", *NIGHTS[:3], slowed)
        self.assertEqual(text.returncode, 1)
        self.assertIn("past the 5.0 % tolerance and the noise", text.stdout)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
