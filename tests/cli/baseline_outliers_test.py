#!/usr/bin/env python3
"""baseline create names a run that is not like the others and leaves it out, or keeps it when asked: five healthy
one-H200 runs (tests/data/nightly_h200x1's nights, slowdown_h200x1/healthy.json) and one measured while another
process multiplied BF16 matrices on the GPU (slowdown_h200x1/heavy.json), or a copy of a night with every BF16
figure cut 42 %.

usage: baseline_outliers_test.py GPUBENCH_BINARY TEST_DATA_DIR
"""
import json
import os
import subprocess
import sys
import unittest

from temporary_folder import TemporaryFolder

GPUBENCH = sys.argv[1] if len(sys.argv) > 1 else "build/gpubench"
DATA = sys.argv[2] if len(sys.argv) > 2 else "tests/data"
HEALTHY = [os.path.join(DATA, "nightly_h200x1", name)
           for name in ("night1.json", "night2.json", "night3.json", "night_another_node.json")]
HEALTHY.append(os.path.join(DATA, "slowdown_h200x1", "healthy.json"))
HEAVY = os.path.join(DATA, "slowdown_h200x1", "heavy.json")


def run(*args):
    return subprocess.run([GPUBENCH, *args], capture_output=True, text=True, timeout=120)


def run_id(path):
    with open(path) as f:
        return json.load(f)["run"]["id"]


class OutlierRuns(TemporaryFolder, unittest.TestCase):
    def create(self, *runs, keep=False):
        out = os.path.join(self.tmp, "baseline.json")
        args = ["baseline", "create", *runs, "-o", out, "--description", "six lent runs"]
        result = run(*args, *(["--keep-outliers"] if keep else []))
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out) as f:
            return result, json.load(f)

    def test_the_loaded_run_is_named_and_left_out(self):
        heavy = run_id(HEAVY)
        result, baseline = self.create(*HEALTHY, HEAVY)
        self.assertIn("1 run is worse than the other runs' median", result.stderr)
        self.assertIn("left out (--keep-outliers keeps it)", result.stderr)
        named = "  %s (%s): gemm/bf16/8192x8192x8192/gpu0/tflops 368.1 TFLOP/s, -46.5 %% against 687.5, the median " \
                "of the other 5 runs (tolerance 5 %%)" % (heavy, HEAVY)
        self.assertIn(named, result.stderr)
        self.assertIn("gemm/fp8_e4m3/8192x8192x8192/gpu0/tflops", result.stderr)
        self.assertEqual(len(baseline["runs"]), 5)
        self.assertNotIn(heavy, [r["id"] for r in baseline["runs"]])
        self.assertEqual(baseline["metrics"]["gemm/bf16/8192x8192x8192/gpu0/tflops"]["runs"], 5)
        self.assertTrue(baseline["description"].startswith("six lent runs Left out as outliers: " + heavy),
                        baseline["description"])
        self.assertIn("baseline for 1 x NVIDIA H200 (single): 93 metrics from 5 runs", result.stdout)

    def test_kept_when_asked_and_said_so(self):
        heavy = run_id(HEAVY)
        result, baseline = self.create(*HEALTHY, HEAVY, keep=True)
        self.assertIn("kept, as --keep-outliers asks", result.stderr)
        self.assertIn(heavy + " (" + HEAVY + "): gemm/bf16/8192x8192x8192/gpu0/tflops", result.stderr)
        self.assertEqual(len(baseline["runs"]), 6)
        self.assertIn(heavy, [r["id"] for r in baseline["runs"]])
        self.assertIn("Kept, though outliers (--keep-outliers): " + heavy, baseline["description"])

    def test_a_night_with_bf16_cut_42_percent_is_named(self):
        with open(HEALTHY[0]) as f:
            doc = json.load(f)
        doc["run"]["id"] = "bf16-cut"
        for metric in doc["metrics"]:
            if "/bf16/" in metric["id"]:
                metric["samples"] = [s * 0.58 for s in metric["samples"]]
                metric["value"] *= 0.58
                for key in ("median", "mean", "min", "max", "mad", "stddev"):
                    metric["statistics"][key] *= 0.58
        cut = self.write_doc("cut.json", doc)
        result, baseline = self.create(*HEALTHY, cut)
        self.assertIn("  bf16-cut (" + cut + "): gemm/bf16/8192x8192x8192/gpu0/tflops", result.stderr)
        self.assertNotIn("bf16-cut", [r["id"] for r in baseline["runs"]])
        # BF16 burst decides no acceptance, so names no run; left out, the cut run no longer spreads it 18 %.
        burst = "gemm/burst/bf16/8192x8192x8192/gpu0/tflops"
        self.assertNotIn(burst, result.stderr)
        left_out = baseline["metrics"][burst]
        _, kept = self.create(*HEALTHY, cut, keep=True)
        self.assertLess(left_out["spread"] / left_out["expected"], 0.02)
        self.assertGreater(kept["metrics"][burst]["spread"] / kept["metrics"][burst]["expected"], 0.10)

    def test_healthy_runs_name_none(self):
        result, baseline = self.create(*HEALTHY)
        self.assertNotIn("outlier", result.stderr.replace("--keep-outliers", ""))
        self.assertEqual(baseline["description"], "six lent runs")
        self.assertEqual(len(baseline["runs"]), 5)

    def test_two_runs_are_too_few_to_tell(self):
        result, baseline = self.create(HEALTHY[0], HEAVY)
        self.assertIn("2 runs: too few to tell a run that is not like the others (3 or more are needed)", result.stderr)
        self.assertEqual(len(baseline["runs"]), 2)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
